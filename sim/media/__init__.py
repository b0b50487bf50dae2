"""The media floor: shot diagrams and PNG, GIF and MP4 export (no window)."""
