"""Write stage: files written atomically inside the output folder, the manifest, the build cache and preflight."""
