"""The repository as a whole: layers, lint, types, the build, packaging, the README, spec/."""
