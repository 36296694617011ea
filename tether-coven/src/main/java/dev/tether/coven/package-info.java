/**
 * The agent side of the coven gateway protocol ({@code coven.CovenControl/AgentStream}, gRPC),
 * bridged to a tether agent.
 *
 * <p>{@link dev.tether.coven.CovenAgent} is the whole API: build it with the gateway, transport,
 * {@link dev.tether.coven.CovenCredentials}, identity and the tether side (any
 * {@link dev.tether.client.TetherClient}), start it, and read why it stopped from
 * {@link dev.tether.coven.CovenTermination}; {@link dev.tether.coven.CovenListener} reports
 * progress. Generated protobuf and gRPC types live in {@code dev.tether.coven.internal.proto}
 * and never appear in this package's signatures.
 *
 * <p>The mapping, in both directions: {@code SendMessage} is a validated {@code user.message}
 * on session {@code coven}/{@code thread_id} (image attachments become images, other
 * attachments are named in the text, every attachment is listed in the payload's
 * {@code attachments}); the frames answering it ({@code msg_id} of the request) become events:
 * {@code assistant.delta} is {@code text}, {@code reasoning.delta} and {@code status.presence
 * thinking} are {@code thinking}, {@code assistant.done} images are {@code file}, its
 * {@code usage} and {@code event.usage} frames are {@code usage}, {@code event.tool_state} frames
 * are {@code tool_state}, and the request ends in exactly one {@code done}, {@code error} (an
 * {@code error} frame, a refused attachment: the tether code first) or {@code cancelled}
 * ({@code CancelRequest}, sent to the agent as {@code control.cancel}). {@code InjectContext}
 * is acknowledged and its content opens the next turn's text.
 */
package dev.tether.coven;
