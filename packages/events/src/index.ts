// @milpa/events
export {};
