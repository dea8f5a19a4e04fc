// @milpa/core
export {};
