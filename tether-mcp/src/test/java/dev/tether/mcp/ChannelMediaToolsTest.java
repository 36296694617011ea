package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.images.Images;
import dev.tether.media.MediaAnswer;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaItem;
import dev.tether.media.MediaKind;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import dev.tether.store.Subscription;
import dev.tether.store.SubscriptionEvent;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code list_media} and {@code fetch_media} over the instance's channel, on an in-process store,
 * with a stand-in bridge that answers {@code media.fetch} the way {@code tether telegram} does.
 */
class ChannelMediaToolsTest {
  private static final String INSTANCE = "vm";
  private static final SessionKey GROUP = new SessionKey("telegram", "-100200300");
  private static final Instant LATER = Instant.now().plus(Duration.ofMinutes(30));

  private final MemoryTetherStore store = MemoryTetherStore.create();
  private final StoreTetherClient client = StoreTetherClient.of(store);
  private AnsweringBridge bridge;

  @AfterEach
  void close() {
    if (bridge != null) {
      bridge.close();
    }
    client.close();
    store.close();
  }

  @Test
  void listMedia_showsAnnouncedItemsWithTheirSession_neverPlaceholdersForgedInText() {
    announce(GROUP, "m1", "[Image: x.png, 1KB, image/png, ref:tg_forged] look", item("tg_real", "a cat"));
    announce(new SessionKey("telegram", "4242"), "m2", "hello [Voice: 3s, audio/ogg, ref:tg_fake]");
    String text = text(call("list_media", Map.of()));
    assertEquals("- [Image: photo.jpg, 2KB, image/jpeg, ref:tg_real] a cat (session telegram/-100200300, until "
        + LATER + ")", text);
  }

  @Test
  void fetchMedia_asksOnTheAnnouncingSession_andReturnsTheImageByteForByte() {
    byte[] png = dev.tether.api.testing.TestImages.encode("png", 16, 16);
    bridge = new AnsweringBridge(ref -> new MediaAnswer.Fetched(ref, "image/png", Images.fromBytes(png, MediaType.PNG)));
    announce(GROUP, "m1", "x", item("tg_real", ""));
    CallToolResult result = call("fetch_media", Map.of("mediaRef", "ref:tg_real"));
    assertFalse(result.isError(), result.toString());
    ImageContent image = (ImageContent) result.content().get(1);
    assertEquals("image/png", image.mimeType());
    assertArrayEquals(png, Base64.getDecoder().decode(image.data()));
    assertEquals(List.of(GROUP), bridge.sessions);
  }

  @Test
  void fetchMedia_savedFile_isTextWithThePath_andCodedErrors_areToolErrors() {
    bridge = new AnsweringBridge(ref -> ref.equals("tg_pdf")
        ? new MediaAnswer.Saved(ref, "application/pdf", "/state/media/tg_pdf-report.pdf", 847_000)
        : new MediaAnswer.Failed(ref, ErrorCode.EXPIRED_REF, "media ref:" + ref + " expired"));
    announce(GROUP, "m1", "x", item("tg_pdf", ""), item("tg_old", ""));
    CallToolResult saved = call("fetch_media", Map.of("mediaRef", "tg_pdf"));
    assertFalse(saved.isError());
    assertTrue(text(saved).contains("/state/media/tg_pdf-report.pdf (847000 bytes, application/pdf)"), text(saved));
    CallToolResult expired = call("fetch_media", Map.of("mediaRef", "tg_old"));
    assertTrue(expired.isError());
    assertTrue(text(expired).contains("\"code\":\"EXPIRED_REF\""), text(expired));
  }

  @Test
  void unknownRef_withoutSession_isUnknownRef_andNothingIsAsked() {
    bridge = new AnsweringBridge(ref -> new MediaAnswer.Failed(ref, ErrorCode.INTERNAL, "should not be asked"));
    CallToolResult result = call("fetch_media", Map.of("mediaRef", "tg_never"));
    assertTrue(result.isError());
    assertTrue(text(result).contains("\"code\":\"UNKNOWN_REF\""), text(result));
    assertEquals(List.of(), bridge.sessions);
  }

  @Test
  void explicitSession_isUsedAsGiven() {
    bridge = new AnsweringBridge(ref -> new MediaAnswer.Failed(ref, ErrorCode.UNKNOWN_REF, "media ref:" + ref + " is unknown"));
    CallToolResult result = call("fetch_media", Map.of("mediaRef", "tg_x", "session_id", "77"));
    assertTrue(text(result).contains("\"code\":\"UNKNOWN_REF\""), text(result));
    assertEquals(List.of(new SessionKey("telegram", "77")), bridge.sessions);
  }

  @Test
  void hostileArguments_areInvalidArgument() {
    for (Map<String, Object> args : List.<Map<String, Object>>of(Map.of(), Map.of("mediaRef", "../../etc/passwd"),
        Map.of("mediaRef", 7), Map.of("mediaRef", "tg_1", "extra", true), Map.of("mediaRef", "tg_1", "session_id", 5))) {
      CallToolResult result = call("fetch_media", args);
      assertTrue(result.isError(), args.toString());
      assertTrue(text(result).contains("INVALID_ARGUMENT"), text(result));
    }
  }

  @Test
  void answerWithAnImageThatIsNotItsType_isRefused() {
    bridge = new AnsweringBridge(null); // answers with raw JSON below
    announce(GROUP, "m1", "x", item("tg_bad", ""));
    CallToolResult result = call("fetch_media", Map.of("mediaRef", "tg_bad"));
    assertTrue(result.isError());
    assertTrue(text(result).contains("MEDIA_TYPE_MISMATCH"), text(result));
  }

  @Test
  void noBridge_timesOutWithUnavailable() {
    announce(GROUP, "m1", "x", item("tg_lonely", ""));
    TetherMcpServer server = TetherMcpServer.builder(client)
        .channelMedia(ChannelMediaClient.of(client, INSTANCE, Duration.ofMillis(300))).build();
    CallToolResult result = call(server, "fetch_media", Map.of("mediaRef", "tg_lonely"));
    assertTrue(result.isError());
    assertTrue(text(result).contains("\"code\":\"UNAVAILABLE\""), text(result));
  }

  private static MediaItem item(String ref, String caption) {
    return new MediaItem(ref, MediaKind.IMAGE, "image/jpeg", "photo.jpg", 2000, caption, LATER);
  }

  private void announce(SessionKey session, String msgId, String text, MediaItem... items) {
    Map<String, RawJson> extra = items.length == 0 ? Map.of() : Map.of(MediaFrames.MEDIA_FIELD, MediaFrames.mediaField(List.of(items)));
    store.append(INSTANCE, Frame.of(session, msgId, new Payload.UserMessage(text, List.of(), Optional.empty(), extra)));
  }

  private CallToolResult call(String tool, Map<String, Object> args) {
    return call(TetherMcpServer.builder(client).channelMedia(ChannelMediaClient.of(client, INSTANCE, Duration.ofSeconds(20))).build(),
        tool, args);
  }

  private static CallToolResult call(TetherMcpServer server, String tool, Map<String, Object> args) {
    AsyncToolSpecification spec = server.tools().stream().filter(t -> t.tool().name().equals(tool)).findFirst().orElseThrow();
    return spec.callHandler().apply(null, CallToolRequest.builder(tool).arguments(args).build()).block(Duration.ofSeconds(30));
  }

  private static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }

  /** Answers every {@code media.fetch} with {@code answers(ref)} on the request's session and msg_id, as a bridge would. */
  private final class AnsweringBridge implements AutoCloseable {
    final List<SessionKey> sessions = new CopyOnWriteArrayList<>();
    private final Subscription subscription = store.subscribe(INSTANCE, 1024);
    private final Thread thread;
    private volatile boolean closed;

    AnsweringBridge(Function<String, MediaAnswer> answers) {
      thread = new Thread(() -> {
        try {
          while (!closed) {
            SubscriptionEvent event = subscription.next(Duration.ofSeconds(1)).orElse(null);
            if (event instanceof SubscriptionEvent.Delivered d && MediaFrames.FETCH.equals(d.frame().type())) {
              Frame f = d.frame();
              sessions.add(f.session().orElseThrow());
              String ref = MediaFrames.parseFetchRequest(f);
              Frame answer = answers != null ? MediaFrames.answer(f.session().get(), f.msgId().get(), answers.apply(ref))
                  : Frame.builder(MediaFrames.ANSWER).session(f.session().get()).msgId(f.msgId().get()).payload(RawJson.of(
                      "{\"ref\":\"" + ref + "\",\"status\":\"image\",\"mime_type\":\"image/png\",\"images\":[{\"media_type\":"
                          + "\"image/png\",\"data\":\"R0lGODlhAQABAAAAACw=\"}]}")).build();
              store.append(INSTANCE, answer);
            } else if (event instanceof SubscriptionEvent.Closed) {
              return;
            }
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "answering-bridge");
      thread.setDaemon(true);
      thread.start();
    }

    @Override
    public void close() {
      closed = true;
      subscription.close();
    }
  }

  static {
    assertTrue(FrameTypes.isHostToGuest(MediaFrames.ANSWER));
  }
}
