"""AirlineCRM's tasks as a CUBE benchmark:

    cube list                               # shows airlinecrm-cube
    cube test airlinecrm-cube               # the debug tasks, with CUBE's own checks

Python: airlinecrm_cube.benchmark.AirlineCrmBenchmarkConfig (its docstring shows a run).
"""
