/**
 * The generated client is written for fetch as browsers type it: it names the DOM's BodyInit,
 * which Node's typings (@types/node) use for fetch without declaring it globally. This names the
 * same type, so the client compiles for Node as generated.
 */
type BodyInit = NonNullable<RequestInit["body"]>;
