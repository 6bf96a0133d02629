"""Where an export puts its files: one module without pyarrow, so that readers that only look
(is this folder a dataset?) work without the export extra."""

DATA = "data"  # the folder of Parquet files, one a task under a folder a suite
