/** A booking engine's name: an upper-case identifier, shown as is in catalogue answers. */
export const BOOKING_ENGINE_NAME = /^[A-Z][A-Z0-9_]{1,63}$/;
