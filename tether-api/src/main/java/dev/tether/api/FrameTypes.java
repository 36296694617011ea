package dev.tether.api;

/**
 * The frame types the protocol names. Other types are legal and pass through untouched.
 *
 * <p>Direction comes from the prefix: {@code user.*} and {@code control.*} flow from host to
 * guest; everything else flows from guest to host.
 */
public final class FrameTypes {
  public static final String USER_MESSAGE = "user.message";
  public static final String CONTROL_CANCEL = "control.cancel";
  public static final String STATUS_PRESENCE = "status.presence";
  public static final String ASSISTANT_DELTA = "assistant.delta";
  public static final String ASSISTANT_DONE = "assistant.done";
  public static final String ASSISTANT_MESSAGE = "assistant.message";
  public static final String REASONING_DELTA = "reasoning.delta";
  public static final String REASONING_DONE = "reasoning.done";
  public static final String EVENT_ACK = "event.ack";
  public static final String ERROR = "error";

  // The agent's tool use and the host's answers (coven's agent protocol); payloads in ToolPayload.
  /** {@code event.tool_use}: the agent starts a tool ({@link ToolPayload.ToolUse}). */
  public static final String EVENT_TOOL_USE = "event.tool_use";
  /** {@code event.tool_result}: what a tool returned ({@link ToolPayload.ToolResult}). */
  public static final String EVENT_TOOL_RESULT = "event.tool_result";
  /** {@code event.tool_state}: a tool's lifecycle ({@code {id, state, detail?}}, state such as {@code running}). */
  public static final String EVENT_TOOL_STATE = "event.tool_state";
  /** {@code event.tool_approval_request}: the agent asks a human before it runs a tool. */
  public static final String EVENT_TOOL_APPROVAL_REQUEST = "event.tool_approval_request";
  /** {@code event.pack_tool_request}: the agent asks its host (a coven gateway) to run a pack tool. */
  public static final String EVENT_PACK_TOOL_REQUEST = "event.pack_tool_request";
  /** {@code event.session_init}: the agent's backend session started or was confirmed. */
  public static final String EVENT_SESSION_INIT = "event.session_init";
  /** {@code event.session_orphaned}: the agent's backend session was lost. */
  public static final String EVENT_SESSION_ORPHANED = "event.session_orphaned";
  /** {@code control.tool_approval}: a human's answer to an approval request (approve, deny, approve_all). */
  public static final String CONTROL_TOOL_APPROVAL = "control.tool_approval";
  /** {@code control.pack_tool_result}: the result of a pack tool the agent asked for. */
  public static final String CONTROL_PACK_TOOL_RESULT = "control.pack_tool_result";

  private FrameTypes() {}

  /** True for frames that flow from host to guest ({@code user.*} and {@code control.*}). */
  public static boolean isHostToGuest(String type) {
    return type.startsWith("user.") || type.startsWith("control.");
  }

  /** True for the frame types whose payload may carry {@code images}. */
  public static boolean mayCarryImages(String type) {
    return USER_MESSAGE.equals(type) || ASSISTANT_DONE.equals(type) || ASSISTANT_MESSAGE.equals(type);
  }

  /**
   * True for the types the protocol defines as text-only ({@code assistant.delta},
   * {@code reasoning.delta}, {@code status.presence}, {@code control.cancel}): an {@code images}
   * field on them is an error ({@link ErrorCode#IMAGES_NOT_ALLOWED}). Types that are neither this
   * nor {@link #mayCarryImages} pass through unchecked.
   */
  public static boolean forbidsImages(String type) {
    return ASSISTANT_DELTA.equals(type) || REASONING_DELTA.equals(type)
        || STATUS_PRESENCE.equals(type) || CONTROL_CANCEL.equals(type);
  }

  /** True for the streaming types that hosts may keep out of their history ring. */
  public static boolean isDelta(String type) {
    return ASSISTANT_DELTA.equals(type) || REASONING_DELTA.equals(type);
  }
}
