"""The component-library gallery: real component libraries bundled offline, the tasks a user does
on them, and a runner that checks each task's outcome in the app's own state (issue 34)."""
