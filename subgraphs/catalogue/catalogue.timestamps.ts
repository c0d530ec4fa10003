/** updateDate moves forward on every update, even when two updates fall within one clock tick. */
export const nextUpdateDate = (now: Date, previous: Date): Date => (now > previous ? now : new Date(previous.getTime() + 1));
