"""Engines that run gallery tasks: each implements :class:`gallery.engine_api.Engine`."""
