from IPython.display import DisplayHandle, clear_output, display, publish_display_data, update_display  # noqa: F401
