"""The key by which an ingest recognises a hand the dataset already holds.

A 128-bit BLAKE2b digest of (match_id, hand_no). Python's ``hash`` of the pair (what ingest
used before) is 64 bits and seeded afresh in every process: two distinct hands colliding (about
3e-6 at ten million hands) made the second a wrong ``duplicate hand`` reject, and whether it
happened depended on the run. At 128 bits a collision is about 1e-25 at ten million hands, and
the key is the same in every process. Keeping the pairs themselves would cost ~150 bytes a hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from hashlib import blake2b

__all__ = ["hand_key", "hand_keys"]


def hand_key(match_id: str, hand_no: int) -> int:
    """The 128-bit key of one hand (a lone surrogate in an id is kept, not refused)."""
    text = f"{hand_no}\x00{match_id}".encode("utf-8", "surrogatepass")
    return int.from_bytes(blake2b(text, digest_size=16).digest(), "little")


def hand_keys(match_ids: Iterable[str], hand_nos: Iterable[int]) -> set[int]:
    """The keys of the hands of two aligned columns (a dataset's stored hands)."""
    return {hand_key(m, n) for m, n in zip(match_ids, hand_nos, strict=True)}
