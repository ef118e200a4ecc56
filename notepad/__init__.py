"""The Marshal's notepad: records, validation and storage."""
