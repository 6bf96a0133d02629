"""The project's version: the one number of the package (pyproject.toml reads it from here),
`airlinecrm --version`, the OpenAPI document, run.json and the dataset card."""

VERSION = "0.1.0"
