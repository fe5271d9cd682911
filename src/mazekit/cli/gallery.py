"""``mazekit gallery``: every generator side by side, each as a distance heat map."""

from __future__ import annotations

import click

from ..parsing import grid_shape, parse_source
from ._options import GridChoice, check_output, run


@click.command()
@click.option("-o", "--output", default="gallery.png", show_default=True, help="Picture to write.")
@click.option(
    "-g",
    "--grid",
    type=GridChoice(),
    default="rect",
    show_default=True,
    help="Grid shape; every generator that runs on it is shown.",
)
@click.option(
    "-s",
    "--size",
    default=None,
    help="WIDTHxHEIGHT of every maze [20x20]; polar RINGSxCELLS [10x8]; 3d WIDTHxHEIGHTxLEVELS [8x6x3].",
)
@click.option("--wrap", type=click.Choice(["x", "y", "xy"]), default=None,
              help="Join a rect grid's edges: x or y a cylinder, xy a torus.")  # fmt: skip
@click.option("--seed", type=int, default=1, show_default=True, help="The seed every generator gets.")
@click.option("-a", "--algorithm", "algorithms", multiple=True, help="Only these generators. Repeatable.")
@click.option(
    "--source",
    default="centre",
    show_default=True,
    metavar="start|goal|centre|ROW,COL",
    help="Where distances are measured from.",
)
@click.option(
    "--colormap", default="viridis", show_default=True, help="viridis, magma, inferno, plasma, buck or greys."
)
@click.option("--cell-size", type=int, default=8, show_default=True, help="Pixels per cell.")
@click.option("--wall-width", type=int, default=2, show_default=True, help="Pixels per wall.")
@click.option("--columns", type=int, default=None, help="Tiles per row [up to 4].")
@run
def gallery(output: str, grid: str, size: str | None, wrap: str | None, seed: int,
            algorithms: tuple[str, ...], source: str, colormap: str, cell_size: int, wall_width: int,
            columns: int | None) -> None:  # fmt: skip
    """Draw every generator that runs on the grid, same size and seed, each as a heat map."""
    from pathlib import Path

    from ..output import IMAGE_SUFFIXES, save_image
    from ..render.gallery import gallery as make_gallery

    if Path(output).suffix.lower() not in IMAGE_SUFFIXES:
        raise ValueError(f"gallery draws a picture: give -o NAME.png (got {output})")
    check_output(output, {})
    from ..grids import grid_class

    if size is None and grid_class(grid).size_words == ("WIDTH", "HEIGHT"):
        size = "20x20"  # square pictures line up best; other grids take their own default
    image = make_gallery(
        grid_shape(grid, size, None, None), grid=grid, wrap=wrap, rng=seed, algorithms=algorithms or None,
        source=parse_source(source), cmap=colormap, cell_size=cell_size, wall_width=wall_width,
        columns=columns,
    )  # fmt: skip
    save_image(image, output)
    click.echo(f"wrote {output}: {image.size[0]}x{image.size[1]} pixels", err=True)
