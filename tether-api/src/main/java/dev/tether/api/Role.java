package dev.tether.api;

/** Who speaks in a conversation turn. Tool results are user-side turns, as in the provider APIs. */
public enum Role {
  USER,
  ASSISTANT
}
