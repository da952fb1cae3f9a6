"""Training data from Python: morne.read_shards yields shuffled batches of self-play rows as
numpy arrays, read ahead by a C++ thread (docs/training-data.md gives every dataset)."""

import os

from . import _core


def read_shards(paths, batch_size=256, seed=1, batches=None, validation_permille=0,
                shuffle_rows=4096):
    """Yields `batches` batches (default: as many as the training rows make, about one pass)
    of `batch_size` rows drawn in blocks from every row of `paths` (shard files or folders of
    them) and shuffled, all from `seed`. A batch is a dict of numpy arrays that own their
    memory (torch.from_numpy takes them without a copy): planes [B, C, H, W], globals [B, G],
    policy [B, A] (the search's target), legal [B, A] (uint8), value [B] (the result for the
    side to move), and the auxiliary targets the shards hold: search_value [B], margin [B],
    control [B, H, W], short_value [B, K] (NaN where unknown). Games chosen by their seed as
    validation games (validation_permille per 1000) are left out. ValueError or OSError names a
    file that is not a shard of the same kind as the others, or a damaged one."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    stream = _core.ShardStream([os.fspath(p) for p in paths], seed, validation_permille,
                               shuffle_rows)
    count = batches if batches is not None else max(1, stream.training_rows // batch_size)
    for _ in range(count):
        yield stream.next(batch_size)
