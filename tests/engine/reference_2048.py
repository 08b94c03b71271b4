"""A slow, obvious 2048 written the way the original game does it, to check the engine.

Tiles are visited starting from the edge they are pushed toward; each one travels cell by cell
until the next cell is the edge or a tile. If that tile has the same value and was not itself
made by a merge in this move, the two merge.

`ReferenceGame` adds the seeded spawns as the engine documents them: the n-th spawn is the n-th
output of splitmix64 started at the seed; its high 32 bits pick one of the cells the move left
empty (listed line by line: rows from the top for left and right, columns from the left for up
and down, each line from the edge the tiles were pushed toward), its low 32 bits a 4 below one
tenth of 2**32, else a 2. Nothing here comes from the engine's code.
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


MASK64 = (1 << 64) - 1


def splitmix64(seed):
    """splitmix64 in its textbook, stateful form: add the golden gamma, then mix."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def spawn_from_draw(draw, empty_count):
    """The documented use of a draw: (index among the empty cells, value of the new tile)."""
    index = (draw >> 32) * empty_count >> 32
    return index, 4 if (draw & 0xFFFFFFFF) < 0.1 * 2**32 else 2


def cells_left_empty(rows, direction):
    """The empty cells of `rows` after a push in `direction`, in the order spawns count them."""
    d_row, d_col = STEPS[direction]
    if d_row:
        lines = [[(row, col) for row in range(4)] for col in range(4)]
    else:
        lines = [[(row, col) for col in range(4)] for row in range(4)]
    if d_row > 0 or d_col > 0:
        lines = [line[::-1] for line in lines]
    return [(row, col) for line in lines for row, col in line if not rows[row][col]]


class ReferenceGame:
    """Rows of values, the score and the seeded spawns, move by move; no win banner."""

    def __init__(self, rows, score, seed, spawns):
        self.rows = tuple(tuple(row) for row in rows)
        self.score = score
        self.draws = splitmix64(seed)
        for _ in range(spawns):
            next(self.draws)

    def move(self, direction):
        after, points = reference_slide(self.rows, direction)
        if after == self.rows:
            return False
        cells = cells_left_empty(after, direction)
        index, value = spawn_from_draw(next(self.draws), len(cells))
        grid = [list(row) for row in after]
        row, col = cells[index]
        grid[row][col] = value
        self.rows = tuple(tuple(row) for row in grid)
        self.score += points
        return True


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
