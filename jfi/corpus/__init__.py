"""The functional-images corpus: validation, review rounds, blind second passes, image copies, exports."""
