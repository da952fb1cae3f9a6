"""pytest settings of the Python module's suites: the `torch` mark (tests that import PyTorch,
a few seconds each: ctest runs them apart from the quick `unit` ones)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "torch: imports PyTorch (slow to start)")
