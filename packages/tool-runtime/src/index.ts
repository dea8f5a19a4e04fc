// @milpa/tool-runtime
export {};
