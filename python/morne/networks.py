"""Network agents ("az" specs) from Python: their loader comes from morne._torch, which links
LibTorch, and is imported only when an "az" spec is first used (`import morne` stays light)."""

from . import _core

_loaded = False


def load_networks_for(spec):
    """Makes "az" specs playable when `spec` is one (imports morne._torch once)."""
    global _loaded
    if _loaded or spec.split(":", 1)[0].strip() != "az":
        return
    from . import _torch
    _core._use_network_loader(_torch.network_loader())
    _loaded = True


class Agent(_core.Agent):
    __doc__ = _core.Agent.__doc__

    def __init__(self, spec, seed=0):
        load_networks_for(spec)
        super().__init__(spec, seed)
