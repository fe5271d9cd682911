"""The web page: generate, watch, solve and play mazes in a browser (``mazekit serve``).

:func:`mazekit.web.app.create_app` builds the FastAPI application: the page and its assets
(shipped in ``static/``, no CDN, no build step) and a JSON API documented at ``/docs``.
:mod:`mazekit.web.work` does the work behind the API without any web framework, so it can
be tested and reused on its own; :mod:`mazekit.web.geometry` turns any grid into what the
page's canvas draws. FastAPI and uvicorn are the ``web`` extra: ``pip install 'mazekit[web]'``.
"""
