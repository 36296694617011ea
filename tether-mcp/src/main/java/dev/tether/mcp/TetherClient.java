package dev.tether.mcp;

import dev.tether.api.Frame;
import java.util.concurrent.CompletableFuture;

/**
 * What the MCP tools need from a tether host: send a frame into an instance and read its egress.
 *
 * <p>This module ships the in-process implementation over a {@code TetherStore}
 * ({@link StoreTetherClient}); the application adds one over the host's HTTP API. Both are
 * asynchronous: a long-poll returns a future that completes when frames arrive or the wait ends,
 * and never holds a thread while it waits, so one MCP server can serve many concurrent polls.
 *
 * <p>Failures complete the future exceptionally: a {@link dev.tether.api.TetherException} for
 * anything the host refuses, with its {@link dev.tether.api.ErrorCode} ({@code INSTANCE_NOT_FOUND}
 * for an instance it does not know, the frame's code for a frame it rejects, {@code
 * INVALID_ARGUMENT}, {@code UNAUTHORIZED} or {@code NOT_FOUND} for any other refusal: trying again
 * will not help), and
 * {@link java.io.IOException} (possibly wrapped in a
 * {@link java.util.concurrent.CompletionException}) when the host cannot be reached.
 * Implementations must be thread-safe.
 */
public interface TetherClient {

  /**
   * Sends {@code frame} (already validated by the caller) into {@code instance}. The future
   * completes once the host has stored the frame; starting or waking the instance's agent is not
   * this call's business (the host only stores the frame for the agent to read).
   */
  CompletableFuture<SendReceipt> send(String instance, Frame frame);

  /**
   * Reads egress frames (guest to host; never the session's own {@code user.*} or
   * {@code control.*} frames) of one session on the {@code host} channel after
   * {@link ReadRequest#afterSeq()}, with the request's type, reply and limit filters. Completes
   * at once when matching frames exist; otherwise waits up to {@link ReadRequest#waitMs()} for
   * one. {@link ReadResult#nextSeq()} follows the store's rule: it never lets the caller skip a
   * matching frame or see one twice. Cancelling the future ends the wait.
   */
  CompletableFuture<ReadResult> read(String instance, ReadRequest request);
}
