"""The compiled side of every grid: who neighbours whom, as scalar arithmetic.

Kernels receive a grid as ``geo = (kind, rows, cols, param)``, a tuple of four integers
(no array, so numba adds no reference counting in hot loops), plus a flat ``uint8`` mask
that is empty when every cell exists. Cells are numbered ``row * cols + col`` on every grid;
each grid lays its cells out in a ``(rows, cols)`` array (polar rings are rows, 3D levels are
stacked bands of rows).

- :func:`step` gives the neighbour through a slot (-1 off the grid), :func:`through` the
  same across a passage that is known to be open, and :func:`back` the neighbour's slot that
  leads back. :func:`n_slots` is how many slots a grid kind has.
- The kinds that no table describes (codes below :data:`TABLE`: wrapped rectangles, polar
  rings, 3d stairs, weave tunnels) are branches here. A grid whose every neighbour is a
  fixed ``(row, col)`` offset (chosen by a parity of the cell), hex, triangle and upsilon
  among them, needs no code here: its module declares the offsets and :func:`declare`
  fills a row of the tables below, from which :func:`move`, :func:`back`, :func:`turn`,
  :func:`is_slot`, :func:`n_slots`, :func:`estimate` and the padded layout answer for its
  code.

One module a job, each importing only those above it; this package names them all:

- :mod:`.tables`: kind codes, slot counts, the offset tables and :func:`declare`;
- :mod:`.cells`: per-kind arithmetic (:func:`step`, :func:`move`, :func:`back`, parity,
  whether a cell or a tunnel exists);
- :mod:`.padded`: padded layouts, where a neighbour is one addition;
- :mod:`.topology`: the fast kernels' topologies (padded offsets, polar ring tables) and
  their random-walk and neighbourhood helpers;
- :mod:`.graph`: whole-grid utilities (neighbour table, components, A*'s estimate);
- :mod:`.turning`: the slots round a cell in order (wall followers, slips).
"""

from __future__ import annotations

from .cells import (
    back,
    block_exists,
    bridged,
    exists,
    move,
    n_slots,
    parity,
    polar_doubles,
    ring_shift,
    step,
    through,
    tunnel_ok,
    tunnels,
    wall_slots,
)
from .graph import count_components, estimate, largest_component, neighbor_table
from .padded import (
    BIT_COUNT,
    NTH_BIT,
    below,
    pad,
    pad_index,
    pad_offsets,
    pad_row,
    pad_rows,
    pad_values,
    pad_width,
    paddable,
    padded_size,
    slot_count,
    unpad,
    unpad_index,
)
from .tables import (
    CUBE,
    FIRST_FREE,
    HEADING,
    HEX,
    MAX_KINDS,
    MAX_SLOTS,
    METRICS,
    PARITY_RULES,
    POLAR,
    RECT,
    SEALED,
    SLOT_COUNT,
    SLOTS_OF,
    TABLE,
    TRIANGLE,
    UPSILON,
    WEAVE,
    declare,
    table_rows,
)
from .topology import (
    MISS,
    NO_TOPOLOGY,
    RING_CELLS,
    RING_HEAD,
    along,
    around,
    cell_back,
    cell_step,
    copy_out,
    fast_index,
    fast_layout,
    fast_passages,
    fast_values,
    flat,
    free_slots,
    high,
    hop,
    hop_back,
    lay_out,
    layout_dtype,
    matching,
    near,
    neighbour_topology,
    offset_topology,
    polar_rings,
    ring_neighbours,
    row_start,
    state_bits,
    table_bytes,
    to_cell,
    to_fast,
    walk_back,
    walk_slot,
    walk_start,
    walk_try,
)
from .turning import full_turn, heading, is_slot, lacks_slots, shared_headings, sideways, slips_round, turn

__all__ = [
    "BIT_COUNT",
    "CUBE",
    "FIRST_FREE",
    "HEADING",
    "HEX",
    "MAX_KINDS",
    "MAX_SLOTS",
    "MISS",
    "NO_TOPOLOGY",
    "NTH_BIT",
    "METRICS",
    "PARITY_RULES",
    "POLAR",
    "RECT",
    "RING_CELLS",
    "RING_HEAD",
    "SEALED",
    "SLOTS_OF",
    "SLOT_COUNT",
    "TABLE",
    "TRIANGLE",
    "UPSILON",
    "WEAVE",
    "along",
    "around",
    "back",
    "below",
    "block_exists",
    "bridged",
    "cell_back",
    "cell_step",
    "copy_out",
    "fast_index",
    "fast_layout",
    "fast_passages",
    "fast_values",
    "high",
    "layout_dtype",
    "neighbour_topology",
    "state_bits",
    "table_bytes",
    "count_components",
    "declare",
    "estimate",
    "exists",
    "flat",
    "free_slots",
    "hop",
    "hop_back",
    "full_turn",
    "heading",
    "is_slot",
    "lacks_slots",
    "shared_headings",
    "slips_round",
    "largest_component",
    "lay_out",
    "matching",
    "move",
    "n_slots",
    "near",
    "offset_topology",
    "neighbor_table",
    "pad",
    "pad_index",
    "pad_offsets",
    "pad_row",
    "pad_rows",
    "pad_values",
    "pad_width",
    "paddable",
    "padded_size",
    "parity",
    "polar_doubles",
    "polar_rings",
    "ring_neighbours",
    "ring_shift",
    "row_start",
    "sideways",
    "slot_count",
    "step",
    "table_rows",
    "through",
    "to_cell",
    "to_fast",
    "tunnel_ok",
    "tunnels",
    "turn",
    "unpad",
    "unpad_index",
    "walk_back",
    "walk_slot",
    "walk_start",
    "walk_try",
    "wall_slots",
]
