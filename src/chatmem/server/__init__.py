"""Servers over the Memory facade: HTTP (``http``) and MCP (``mcp``)."""
