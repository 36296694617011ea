package dev.tether.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Payload;
import dev.tether.api.TetherException;
import dev.tether.api.InlineAnswer;
import dev.tether.api.InlineImage;
import dev.tether.api.LogFields;
import dev.tether.api.json.TetherJson;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.media.MediaFrames;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Tether to chat: long-polls the instance's session channel ({@link ChatSessions#channel()}) and
 * delivers each answer to its chat through the {@link ChatSender}: images first, then the text split
 * into messages of at most {@link ChatSender#textLimit()}. Answers the agent starts on its own
 * ({@code assistant.done} without a request, {@code assistant.message}) are delivered the same way;
 * {@code status.presence} drives the {@link TypingIndicator}, {@code assistant.delta} the optional
 * {@link LiveDrafts}, {@code error} a short notice; the agent's {@code media.fetch} requests go to
 * the fetch handler (usually {@link MediaFetchAnswers}), which answers them on the instance.
 *
 * <p><b>Exactly once across restarts.</b> After every chat message sent, the state file records
 * the frame's seq and how many of its messages are out; after the last one, the cursor moves past
 * the frame. A restart resumes at the first message not yet recorded, so nothing is sent twice
 * unless the process dies between the platform's answer and the state write (a window of one
 * fsync). A message the platform refuses for good (a 400 or 403) is logged and counted as sent, so
 * one bad message cannot block the chat.
 *
 * <p>Caption rule: when live edits are off and an answer has images and at most
 * {@link ChatSender#captionLimit()} characters of text, the text is the caption of the last image,
 * so the answer is one unit in the chat; longer text follows the images as messages. With live
 * edits the text is already on screen as a draft when the answer is done, so the draft is edited
 * into the final text and the images follow it.
 *
 * <p>Runs on one thread ({@link #run}); it ends when the {@link ChatStopper} fires.
 *
 * @param <C> the channel's chat
 */
public final class AnswerDelivery<C> {
  /** The frame types delivered with live edits on. */
  public static final Set<String> TYPES = Set.of(FrameTypes.ASSISTANT_DONE, FrameTypes.ASSISTANT_MESSAGE,
      FrameTypes.ASSISTANT_DELTA, FrameTypes.STATUS_PRESENCE, FrameTypes.ERROR, MediaFrames.FETCH);
  /** Without live edits the deltas are not even fetched. */
  public static final Set<String> TYPES_WITHOUT_DELTAS = Set.of(FrameTypes.ASSISTANT_DONE, FrameTypes.ASSISTANT_MESSAGE,
      FrameTypes.STATUS_PRESENCE, FrameTypes.ERROR, MediaFrames.FETCH);
  /** The state file's key of the last frame fully delivered. */
  public static final String CURSOR = "after_seq";
  static final String PARTIAL_SEQ = "partial_seq";
  static final String PARTS_SENT = "parts_sent";
  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());

  /** One chat message of an answer. */
  private sealed interface Part permits ImagePart, TextPart, EditPart {}

  private record ImagePart(InlineImage image, int index, String caption) implements Part {}

  private record TextPart(String text) implements Part {}

  private record EditPart(long messageId, String text) implements Part {}

  private final BridgeHost host;
  private final ChatSessions<C> sessions;
  private final ChatSender<C> sender;
  private final ChatRetrier retrier;
  private final ChatLog log;
  private final StateFile state;
  private final TypingIndicator<C> typing;
  private final LiveDrafts<C> drafts;
  private final Consumer<Frame> mediaFetch;
  private long cursor;

  /**
   * @param drafts the live drafts, or null when live edits are off
   * @param mediaFetch takes each {@code media.fetch} frame; must not block
   */
  public AnswerDelivery(BridgeHost host, ChatSessions<C> sessions, ChatSender<C> sender, ChatRetrier retrier, ChatLog log,
      StateFile state, TypingIndicator<C> typing, LiveDrafts<C> drafts, Consumer<Frame> mediaFetch) {
    this.host = Objects.requireNonNull(host, "host");
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.sender = Objects.requireNonNull(sender, "sender");
    this.retrier = Objects.requireNonNull(retrier, "retrier");
    this.log = Objects.requireNonNull(log, "log");
    this.state = Objects.requireNonNull(state, "state");
    this.typing = Objects.requireNonNull(typing, "typing");
    this.drafts = drafts;
    this.mediaFetch = Objects.requireNonNull(mediaFetch, "mediaFetch");
    this.cursor = state.get(CURSOR);
  }

  /**
   * Where a bridge without state starts: the host's current end, so that an old history is not
   * replayed into the chats. Called before ingress starts, so no answer to a forwarded message
   * can fall before it.
   */
  public static void initCursor(BridgeHost host, String channel, StateFile state) throws IOException {
    if (state.has(CURSOR)) {
      return;
    }
    PollRequest probe = PollRequest.channel(channel, 0, 0).types(Set.of("-"));
    try {
      FramePage page = host.client().poll(host.instance(), probe).get(60, TimeUnit.SECONDS);
      state.put(CURSOR, page.nextSeq());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("stopped while reading the host's position");
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IOException("cannot read the host's position on instance " + host.instance() + ": " + cause.getMessage(), cause);
    }
  }

  /** The loop: polls and delivers until the bridge stops. */
  public void run() {
    String channel = sessions.channel();
    long initial = retrier.initial().toMillis();
    long backoff = initial;
    while (!retrier.stopping()) {
      try {
        PollRequest request = PollRequest.channel(channel, cursor, host.pollWait().toMillis())
            .types(drafts == null ? TYPES_WITHOUT_DELTAS : TYPES);
        FramePage page = retrier.waitingOn(host.client().poll(host.instance(), request))
            .get(host.pollWait().toMillis() + 60_000, TimeUnit.MILLISECONDS);
        backoff = initial;
        if (page.gap()) {
          log.warn("frames of channel " + channel + " after seq " + cursor + " were evicted by the host before they"
              + " could be delivered; continuing at seq " + page.oldestSeq());
        }
        for (Frame frame : page.frames()) {
          try {
            deliver(frame);
            if (log.debugging()) {
              log.debug("delivered " + frame.type() + " seq " + frame.seq() + " of " + frame.msgId().orElse("(no msg_id)"),
                  LogFields.of(host.instance(), frame));
            }
          } catch (RuntimeException e) {
            // A frame this code cannot handle must not block the frames after it.
            log.warn("skipped " + frame.type() + " seq " + frame.seq() + ": " + log.describe(e));
          }
          cursor = frame.seq();
          state.put(Map.of(CURSOR, cursor, PARTIAL_SEQ, 0L, PARTS_SENT, 0L));
        }
        if (page.nextSeq() > cursor) {
          cursor = page.nextSeq();
          state.put(CURSOR, cursor);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (InterruptedIOException e) {
        return;
      } catch (ExecutionException | TimeoutException | IOException | RuntimeException e) {
        if (retrier.stopping()) {
          return;
        }
        log.warn(channel + " egress: " + log.describe(e) + "; retrying in " + backoff + " ms");
        try {
          retrier.sleep(backoff);
        } catch (InterruptedIOException stop) {
          return;
        }
        backoff = Math.min(retrier.max().toMillis(), backoff * 2);
      }
    }
  }

  private void deliver(Frame frame) throws IOException {
    if (MediaFrames.FETCH.equals(frame.type())) {
      mediaFetch.accept(frame); // answered on the instance, not in the chat; never blocks
      return;
    }
    Optional<C> target = frame.session().flatMap(sessions::allowedChat);
    if (target.isEmpty()) {
      log.info("skipped " + frame.type() + " seq " + frame.seq() + " for session " + frame.session().map(Object::toString).orElse("(none)")
          + ": not an allowed " + sessions.displayName() + " chat");
      return;
    }
    C chat = target.get();
    String msgId = frame.msgId().orElse("");
    boolean answer = FrameTypes.ASSISTANT_DONE.equals(frame.type()) || FrameTypes.ASSISTANT_MESSAGE.equals(frame.type());
    Payload payload = null;
    InlineAnswer read = null;
    try {
      // an answer's images stay in the frame's bytes: they are checked and decoded from there
      if (answer) {
        read = InlineAnswer.read(frame);
      } else {
        payload = frame.payloadView();
      }
    } catch (TetherException e) {
      log.warn("skipped " + frame.type() + " seq " + frame.seq() + " for " + chat + ": " + e.getMessage());
      return;
    }
    if (read != null) {
      if (FrameTypes.ASSISTANT_DONE.equals(frame.type())) {
        typing.stop(chat);
      }
      sendAnswer(frame.seq(), chat, msgId, read.text(), read.images());
    } else if (payload instanceof Payload.Presence p) {
      if (Payload.Presence.THINKING.equals(p.state())) {
        typing.start(chat);
      } else {
        typing.stop(chat);
      }
    } else if (payload instanceof Payload.AssistantDelta d) {
      if (drafts != null) {
        drafts.delta(chat, msgId, d.text());
      }
    } else {
      typing.stop(chat);
      sendAnswer(frame.seq(), chat, msgId, "The agent reported an error: " + errorText(frame.payload().toByteArray()), List.of());
    }
  }

  private void sendAnswer(long seq, C chat, String msgId, String text, List<InlineImage> images) throws IOException {
    long draft = drafts == null ? 0 : drafts.finish(chat, msgId);
    List<Part> parts = parts(text, images, draft);
    long done = state.get(PARTIAL_SEQ) == seq ? state.get(PARTS_SENT) : 0;
    for (int i = (int) Math.min(done, parts.size()); i < parts.size(); i++) {
      send(chat, parts.get(i));
      state.put(Map.of(PARTIAL_SEQ, seq, PARTS_SENT, (long) i + 1));
    }
  }

  /**
   * The messages of one answer, in order: a notice for each image that fails validation, the valid
   * images, then the text. The same for the same frame whether or not a draft exists, so a restart
   * can resume by index.
   */
  private List<Part> parts(String text, List<InlineImage> images, long draft) {
    List<Part> parts = new ArrayList<>();
    List<InlineImage> valid = new ArrayList<>();
    for (int i = 0; i < images.size(); i++) {
      InlineImage image = images.get(i);
      try {
        AnswerImages.check(image, host.limits());
        valid.add(image);
      } catch (TetherException e) {
        log.warn("image " + i + " of an answer not sent: " + e.getMessage());
        parts.add(new TextPart("(An image of this answer could not be shown: " + e.code() + ".)"));
      }
    }
    boolean caption = drafts == null && !valid.isEmpty() && !text.isBlank() && text.length() <= sender.captionLimit();
    for (int i = 0; i < valid.size(); i++) {
      parts.add(new ImagePart(valid.get(i), i, caption && i == valid.size() - 1 ? text : null));
    }
    if (!caption) {
      List<String> chunks = TextSplitter.split(text, sender.textLimit());
      for (int i = 0; i < chunks.size(); i++) {
        parts.add(i == 0 && draft != 0 ? new EditPart(draft, chunks.get(0)) : new TextPart(chunks.get(i)));
      }
    }
    return parts;
  }

  private void send(C chat, Part part) throws IOException {
    try {
      if (part instanceof ImagePart f) {
        ChatSender.ImageUpload upload = sender.prepareImage(chat, f.image(), f.index(), f.caption());
        retrier.call(upload.call(), () -> {
          upload.send();
          return null;
        });
      } else if (part instanceof TextPart t) {
        retrier.call(sender.textCall(), () -> sender.sendText(chat, t.text()));
      } else if (part instanceof EditPart e) {
        try {
          retrier.call(sender.editCall(), () -> {
            sender.editText(chat, e.messageId(), e.text());
            return null;
          });
          drafts.edited(chat);
        } catch (ChannelException notModified) {
          if (!sender.unchangedEdit(notModified)) {
            throw notModified;
          }
        }
      }
    } catch (ChannelException e) {
      if (e.isTransient()) {
        throw e;
      }
      log.warn(sessions.displayName() + " refused a message for " + chat + " and it is dropped: " + e.getMessage());
    }
  }

  /** The message of an {@code error} payload ({@code message}, else {@code text}), at most 500 characters. */
  public static String errorText(byte[] payloadJson) {
    String text;
    try {
      JsonNode node = JSON.readTree(payloadJson);
      JsonNode m = node.path("message").isTextual() ? node.path("message")
          : node.path("error").path("message").isTextual() ? node.path("error").path("message") : node.path("text");
      text = m.isTextual() && !m.asText().isBlank() ? m.asText() : "no details";
    } catch (IOException e) {
      text = "no details";
    }
    return text.length() > 500 ? text.substring(0, 500) + "…" : text;
  }
}
