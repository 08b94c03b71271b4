"""A slow, obvious 2048 move written the way the original game does it, to check the engine.

Tiles are visited starting from the edge they are pushed toward; each one travels cell by cell
until the next cell is the edge or a tile. If that tile has the same value and was not itself
made by a merge in this move, the two merge.
"""

from hypothesis import strategies as st

STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def reference_slide(rows, direction):
    """(rows after pushing `direction`, points), computed tile by tile."""
    grid = [list(row) for row in rows]
    merged_here = [[False] * 4 for _ in range(4)]
    d_row, d_col = STEPS[direction]
    row_order = range(3, -1, -1) if d_row > 0 else range(4)
    col_order = range(3, -1, -1) if d_col > 0 else range(4)
    points = 0
    for row in row_order:
        for col in col_order:
            value = grid[row][col]
            if not value:
                continue
            grid[row][col] = 0
            r, c = row, col
            while 0 <= r + d_row < 4 and 0 <= c + d_col < 4 and not grid[r + d_row][c + d_col]:
                r, c = r + d_row, c + d_col
            ahead = (r + d_row, c + d_col)
            if (
                0 <= ahead[0] < 4
                and 0 <= ahead[1] < 4
                and grid[ahead[0]][ahead[1]] == value
                and not merged_here[ahead[0]][ahead[1]]
            ):
                grid[ahead[0]][ahead[1]] = 2 * value
                merged_here[ahead[0]][ahead[1]] = True
                points += 2 * value
            else:
                grid[r][c] = value
    return tuple(tuple(row) for row in grid), points


def rotate_clockwise(rows):
    return tuple(tuple(rows[3 - col][row] for col in range(4)) for row in range(4))


def mirror_left_right(rows):
    return tuple(tuple(reversed(row)) for row in rows)


def neighbours_equal(rows):
    return any(
        rows[r][c] and (
            (c < 3 and rows[r][c] == rows[r][c + 1]) or (r < 3 and rows[r][c] == rows[r + 1][c])
        )
        for r in range(4)
        for c in range(4)
    )


ALL_VALUES = [0] + [1 << n for n in range(1, 18)]


def _as_rows(cells):
    return tuple(tuple(cells[4 * row : 4 * row + 4]) for row in range(4))


def _at_most_one_largest(cells):
    return cells.count(131072) <= 1


# Boards rich in merges (few distinct values), and boards spanning the whole ladder.
crowded_boards = st.lists(st.sampled_from([0, 0, 2, 4, 8, 16]), min_size=16, max_size=16).map(
    _as_rows
)
wide_boards = (
    st.lists(st.sampled_from(ALL_VALUES), min_size=16, max_size=16)
    .filter(_at_most_one_largest)
    .map(_as_rows)
)
boards = st.one_of(crowded_boards, wide_boards)
full_boards = (
    st.lists(st.sampled_from([2, 4, 8, 16, 32]), min_size=16, max_size=16).map(_as_rows)
)
# Full boards with no equal neighbours (neighbours differ in the parity of row + col, and the two
# parities draw from disjoint values): no move is left.
stuck_boards = st.lists(
    st.tuples(st.sampled_from([2, 8, 32, 128]), st.sampled_from([4, 16, 64, 256])),
    min_size=16,
    max_size=16,
).map(lambda pairs: _as_rows([pairs[cell][(cell // 4 + cell % 4) % 2] for cell in range(16)]))
playable_boards = boards.filter(lambda rows: sum(1 for row in rows for v in row if v) >= 2)
