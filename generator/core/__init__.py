"""The lowest stage: errors with their place, the project's own files, YAML and JSON-schema reading, content digests."""
