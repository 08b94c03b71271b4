"""The packed parts of a game's saved form: its moves, its checkpoints and its positions' tiles,
each one base64 string (the whole dict is described in `saved_game`).

Moves: four a byte, the first in the two lowest bits, each the index of its direction in
DIRECTIONS (up 0, down 1, left 2, right 3); the unused bits of the last byte are 0.

Checkpoints, one after another: the board in 10 bytes (the exponent of cell 4 * row + col in
bits 5 * cell to 5 * cell + 4 of a little-endian 80-bit number, as `engine.board` packs it),
then unsigned LEB128 numbers (7 bits a byte, lowest first, the top bit set on every byte but
the last): the score, the next tile id, and for each tile in reading order its age, the next
id minus its own. Most tiles are young, so most ages take one byte.

Both decoders refuse with ValueError anything but the one encoding of valid content.
"""

import base64
import binascii
from typing import NamedTuple

from engine import validation
from engine.board import Board, exponents
from engine.position import check_tile_ids

_BOARD_BYTES = 10
_LONGEST_NUMBER = 20  # bytes: 140 bits, far beyond any score or id


class Checkpoint(NamedTuple):
    """The game after a multiple of `checkpoint_every` moves: what its move number does not tell."""

    board: Board
    score: int
    next_id: int
    ids: tuple[int, ...]  # one per cell, reading order, 0 = empty


def pack_moves(codes: bytes) -> bytes:
    """Direction codes (one a byte, each 0 to 3) packed four a byte.

    Every fourth code, read as one big int of bytes and shifted by 2, 4 or 6 bits, lands in its
    place inside each byte (3 << 6 still fits a byte), so four ORs pack them all.
    """
    padded = bytes(codes) + bytes(-len(codes) % 4)
    packed = 0
    for slot in range(4):
        packed |= int.from_bytes(padded[slot::4], "little") << (2 * slot)
    return packed.to_bytes(len(padded) // 4, "little")


def append_move(packed: bytearray, count: int, code: int) -> None:
    """Add move number `count` + 1 (direction code `code`) to the `count` moves in `packed`."""
    if count % 4:
        packed[-1] |= code << (2 * (count % 4))
    else:
        packed.append(code)


def decode_moves(text: object, count: int) -> bytes:
    """The `count` direction codes in the base64 `text` of `pack_moves`' bytes, one a byte."""
    return unpack_moves(packed_moves(text, count), count)


def packed_moves(text: object, count: int) -> bytes:
    """The packed bytes of `count` moves in the base64 `text` of `pack_moves`' bytes, checked
    without unpacking them: the right length, and the unused bits after the last move 0."""
    packed = _bytes(text, "moves")
    if len(packed) != -(-count // 4):
        raise ValueError(f"{count} moves take {-(-count // 4)} bytes, not {len(packed)}")
    if count % 4 and packed[-1] >> (2 * (count % 4)):
        raise ValueError("the unused bits after the last move must be 0")
    return packed


def unpack_moves(packed: bytes, count: int) -> bytes:
    """The first `count` direction codes of `pack_moves`' bytes, one a byte."""
    whole = int.from_bytes(packed, "little")
    low_bits = int.from_bytes(b"\x03" * len(packed), "little")
    codes = bytearray(4 * len(packed))
    for slot in range(4):
        codes[slot::4] = (whole >> (2 * slot) & low_bits).to_bytes(len(packed), "little")
    return bytes(codes[:count])


def encode_checkpoints(checkpoints: tuple[Checkpoint, ...]) -> str:
    """The checkpoints one after another, in base64."""
    packed = bytearray()
    for board, score, next_id, ids in checkpoints:
        packed += board.to_bytes(_BOARD_BYTES, "little")
        ages = [next_id - tile_id for tile_id, exponent in zip(ids, exponents(board)) if exponent]
        for number in (score, next_id, *ages):
            packed += _number(number)
    return to_text(bytes(packed))


def decode_checkpoints(text: object, expected: int) -> tuple[Checkpoint, ...]:
    """The `expected` checkpoints of `encode_checkpoints`, each a well-formed position."""
    packed = _bytes(text, "checkpoints")
    checkpoints = []
    offset = 0
    while offset < len(packed):
        if len(packed) - offset < _BOARD_BYTES:
            raise ValueError("the checkpoints end inside a board")
        board = int.from_bytes(packed[offset : offset + _BOARD_BYTES], "little")
        offset += _BOARD_BYTES
        cells = exponents(board)
        rows = tuple(tuple(cells[start : start + 4]) for start in range(0, 16, 4))
        validation.check_exponents(rows)
        validation.check_playable(rows)
        score, offset = _read_number(packed, offset)
        next_id, offset = _read_number(packed, offset)
        ids = [0] * 16
        for cell, exponent in enumerate(cells):
            if exponent:
                age, offset = _read_number(packed, offset)
                ids[cell] = next_id - age
        check_tile_ids(ids, board, next_id)
        checkpoints.append(Checkpoint(board, validation.score(score), next_id, tuple(ids)))
    if len(checkpoints) != expected:
        raise ValueError(f"expected {expected} checkpoints, not {len(checkpoints)}")
    return tuple(checkpoints)


def _number(number: int) -> bytes:
    """`number` (not negative) in unsigned LEB128."""
    encoded = bytearray()
    while number >= 0x80:
        encoded.append(number & 0x7F | 0x80)
        number >>= 7
    encoded.append(number)
    return bytes(encoded)


def _read_number(packed: bytes, offset: int) -> tuple[int, int]:
    """The LEB128 number at `offset`, and the offset after it."""
    if offset < len(packed) and packed[offset] < 0x80:
        return packed[offset], offset + 1  # most numbers here are ages under 128
    number = 0
    for length in range(_LONGEST_NUMBER):
        if offset + length >= len(packed):
            raise ValueError("the checkpoints end inside a number")
        byte = packed[offset + length]
        number |= (byte & 0x7F) << (7 * length)
        if byte < 0x80:
            if length and not byte:
                raise ValueError("a number in the checkpoints has a needless last byte")
            return number, offset + length + 1
    raise ValueError(f"a number in the checkpoints is longer than {_LONGEST_NUMBER} bytes")


def to_text(packed: bytes) -> str:
    """Packed bytes in base64, written the one standard way."""
    return base64.b64encode(packed).decode("ascii")


def _bytes(text: object, what: str) -> bytes:
    """The bytes of a base64 string, written the one standard way (padding, no line breaks)."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be a base64 string, not {type(text).__name__}")
    try:
        packed = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{what} must be base64") from None
    if to_text(packed) != text:
        raise ValueError(f"{what} must be base64 written the standard way")
    return packed
