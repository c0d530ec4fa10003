/**
 * The Subscription type the edge serves (gateway/subscriptions/edge-subscriptions.ts holds how
 * each field is served): composed into the supergraph beside the subgraphs' types, so that the
 * schema clients see is one document.
 */
export const edgeSubscriptionsSdl = `extend schema {
  subscription: Subscription
}

"""Served by the edge from the booking event channel; each message is the entity read through the gateway."""
type Subscription {
  """A booking engine was registered (platform roles only)."""
  bookingEngineRegistered: BookingEngine!

  """
  The booking, with the fields selected (catalogue fields of its product included): first as it
  is when the subscription starts, then as it is after each status change (changes in quick
  succession may arrive as one message with the latest status); completes after a final status
  (CONFIRMED, REJECTED, CANCELLED, EXPIRED, REDEEMED).
  Only the booking's owner may subscribe (consumer accounts of its organisation).
  """
  bookingStatusChanged(
    "The booking's global id"
    bookingId: ID!
  ): Booking!
}
`;
