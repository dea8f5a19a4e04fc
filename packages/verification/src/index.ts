// @milpa/verification
export {};
