"""Process edges: the command line (and later the HTTP service and MCP server)."""
