import { hasAnyRole, hasScope, type Caller } from "../../core/caller.js";
import { forbidden } from "../../core/errors.js";
import { platformRoles } from "../../core/roles.js";
import { toGlobalId } from "../../core/global-id.js";
import { channels } from "../../drizzle/events.js";

/** A booking in one of these no longer changes through the flow. */
const FINAL_BOOKING_STATUSES = ["CONFIRMED", "REJECTED", "CANCELLED", "EXPIRED", "REDEEMED"];

/**
 * Subscriptions are served by the edge, since @apollo/gateway executes only queries and
 * mutations. Each subscription field names the event channel it listens to, which events a
 * subscriber may see, and the entity query that, run through the gateway with the subscriber's
 * own selection, produces each message (the federation subscription pattern).
 */
export interface EdgeSubscription {
  field: string;
  channel: string;
  /** Throws a GraphQLError when the caller may not subscribe with these arguments. */
  authorize(caller: Caller, args: Record<string, unknown>): void;
  /**
   * The id of the entity this event is about, when the field streams such events; undefined
   * otherwise. With an entity argument, the event goes to the subscribers of that entity only.
   */
  match(event: Record<string, unknown>): string | number | undefined;
  entityQuery: { field: string; idType: string };
  /**
   * The argument naming one entity: before listening, the entity is read through the gateway
   * as the subscriber, so only those who may read it (its owner) can subscribe.
   */
  entityArgument?: string;
  /**
   * Fields of that entity that make its state. Each message reads them with the subscriber's
   * selection; a message is sent only when they changed since the last one, and isFinal judges
   * them as read — never the event, which may be older than the entity.
   */
  stateFields?: string[];
  /** True when the state just sent is the last one (the subscription then completes). */
  isFinal?(state: Record<string, unknown>): boolean;
}

export const edgeSubscriptions: EdgeSubscription[] = [
  {
    field: "bookingEngineRegistered",
    channel: channels.bookingEvents,
    authorize(caller) {
      if (!hasAnyRole(caller, platformRoles)) throw forbidden(`This subscription needs one of the roles ${platformRoles.join(", ")}`);
    },
    match(event) {
      return event.type === "booking-engine.registered" && typeof event.bookingEngineId === "number" ? toGlobalId("BookingEngine", event.bookingEngineId) : undefined;
    },
    entityQuery: { field: "bookingEngine", idType: "ID!" },
  },
  {
    field: "bookingStatusChanged",
    channel: channels.bookingEvents,
    authorize(caller) {
      if (!hasScope(caller, "booking")) throw forbidden("This subscription needs the booking scope", { errorCode: 6501 });
    },
    entityArgument: "bookingId",
    stateFields: ["status"],
    match(event) {
      return event.type === "booking.status" && typeof event.bookingId === "string" ? toGlobalId("Booking", event.bookingId) : undefined;
    },
    entityQuery: { field: "booking", idType: "ID!" },
    isFinal: (state) => FINAL_BOOKING_STATUSES.includes(String(state.status)),
  },
];
