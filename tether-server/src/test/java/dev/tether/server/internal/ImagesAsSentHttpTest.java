package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.client.HostAddress;
import dev.tether.images.FrameValidator;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.StreamReader;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Images come back as sent: a ref a store made of an inline image ({@code "offloaded": true}, as
 * the JetStream store leaves it) polls and streams inline by default, a ref the sender sent stays a
 * ref, {@code ?images=refs} gives the stored form; hostile markers leave the frame as stored.
 */
class ImagesAsSentHttpTest {
  @TempDir Path dir;
  private Daemon server;
  private RawHttp http;
  private HostAddress.Unix address;

  @BeforeEach
  void start() throws Exception {
    InstanceRegistry registry = InstanceRegistry.open(dir.resolve("workspaces"), null, false);
    registry.put("default", null);
    address = new HostAddress.Unix(dir.resolve("run/tether.sock"));
    server = Daemon.start(address, MemoryTetherStore.create(), FrameValidator.standard(), null, 16,
        Daemon.defaultIngressBytes(), registry);
    http = new RawHttp(address);
  }

  @AfterEach
  void stop() throws Exception {
    http.close();
    server.close();
  }

  private String upload(byte[] png) throws Exception {
    RawHttp.Reply r = http.send("POST", "/v1/instances/default/blob", "image/png", png);
    assertEquals(200, r.status(), r.body());
    return r.json().get("blob").asText();
  }

  private void post(String images) throws Exception {
    String frame = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":{\"text\":\"look\","
        + "\"images\":[" + images + "]}}";
    RawHttp.Reply r = http.post("/v1/instances/default/tether", frame.getBytes(StandardCharsets.UTF_8));
    assertEquals(202, r.status(), r.body());
  }

  @Test
  void offloadedRef_isInlineByDefault_andARefSentAsARefStaysOne() throws Exception {
    byte[] first = Fixtures.picture("png", 5, 5);
    byte[] second = Fixtures.picture("png", 6, 3);
    String a = upload(first);
    String b = upload(second);
    post("{\"media_type\":\"image/png\",\"blob\":\"" + a + "\",\"size\":" + first.length + ",\"offloaded\":true,\"alt\":\"x\"},"
        + "{\"media_type\":\"image/png\",\"blob\":\"" + b + "\",\"size\":" + second.length + "}");

    JsonNode images = http.get("/v1/instances/default/tether/poll?after_seq=0").json().at("/frames/0/payload/images");
    assertArrayEquals(first, Base64.getDecoder().decode(images.get(0).get("data").asText()), "offloaded: inline again");
    assertFalse(images.get(0).has("offloaded") || images.get(0).has("blob"), images.toString());
    assertEquals("x", images.get(0).get("alt").asText(), "other fields kept");
    assertEquals(b, images.get(1).get("blob").asText(), "sent as a ref: a ref");

    JsonNode refs = http.get("/v1/instances/default/tether/poll?after_seq=0&images=refs").json().at("/frames/0/payload/images");
    assertEquals(a, refs.get(0).get("blob").asText());
    assertEquals(b, refs.get(1).get("blob").asText());
    assertEquals(refs, http.get("/v1/instances/default/tether/poll?after_seq=0&images=stored").json().at("/frames/0/payload/images"));
    JsonNode all = http.get("/v1/instances/default/tether/poll?after_seq=0&images=inline").json().at("/frames/0/payload/images");
    assertTrue(all.get(0).has("data") && all.get(1).has("data"), all.toString());

    try (StreamReader stream = new StreamReader(address, "/v1/instances/default/tether/stream?after_seq=0")) {
      JsonNode streamed = stream.nextFrame().at("/payload/images");
      assertArrayEquals(first, Base64.getDecoder().decode(streamed.get(0).get("data").asText()));
      assertEquals(b, streamed.get(1).get("blob").asText());
    }
  }

  @Test
  void hostileMarkers_leaveTheFrameAsStored() throws Exception {
    byte[] png = Fixtures.picture("png", 4, 4);
    String key = upload(png);
    post("{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"offloaded\":\"yes\"},"
        + "{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"offloaded\":{\"nested\":[1,2]}},"
        + "{\"media_type\":\"image/png\",\"data\":\"" + Base64.getEncoder().encodeToString(png) + "\",\"offloaded\":true}");
    JsonNode images = http.get("/v1/instances/default/tether/poll?after_seq=0").json().at("/frames/0/payload/images");
    assertEquals(key, images.get(0).get("blob").asText(), "not a boolean: stays a ref");
    assertEquals(key, images.get(1).get("blob").asText());
    assertTrue(images.get(2).has("data"));
    RawHttp.Reply bad = http.get("/v1/instances/default/tether/poll?images=everything");
    assertEquals(400, bad.status(), bad.body());
    assertEquals("INVALID_ARGUMENT", bad.errorCode());
  }
}
