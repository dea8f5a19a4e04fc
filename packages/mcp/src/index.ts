// @milpa/mcp
export {};
