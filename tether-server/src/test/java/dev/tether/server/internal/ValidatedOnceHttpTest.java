package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Image;
import dev.tether.api.Payload;
import dev.tether.client.HostAddress;
import dev.tether.images.FrameValidator;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Validate once, through the real ingress: a frame the server validated is stored with its images'
 * proof, so an in-process reader (the agent of {@code serve --with-agent}) does not check them
 * again; what a client reads over HTTP is bytes and carries none.
 */
class ValidatedOnceHttpTest {
  @TempDir Path dir;
  private Daemon server;
  private RawHttp http;
  private MemoryTetherStore store;

  @BeforeEach
  void start() throws Exception {
    InstanceRegistry registry = InstanceRegistry.open(dir.resolve("workspaces"), null, false);
    registry.put("default", null);
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("run/tether.sock"));
    store = MemoryTetherStore.create();
    server = Daemon.start(address, store, FrameValidator.standard(), null, 16, Daemon.defaultIngressBytes(), registry);
    http = new RawHttp(address);
  }

  @AfterEach
  void stop() throws Exception {
    http.close();
    server.close();
  }

  @Test
  void storedFramesCarryTheValidatorsProof_polledBytesDoNot() throws Exception {
    String data = Base64.getEncoder().encodeToString(Fixtures.picture("png", 4, 3));
    String frame = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":{\"text\":\"look\","
        + "\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + data + "\"}]}}";
    RawHttp.Reply r = http.post("/v1/instances/default/tether", frame.getBytes(StandardCharsets.UTF_8));
    assertEquals(202, r.status(), r.body());

    Frame stored = store.query("default", FrameQuery.all()).frames().get(0);
    Image image = ((Payload.UserMessage) stored.payloadView()).images().get(0);
    assertTrue(image.isVerified(), "validated at ingress, proven in the store");
    assertEquals(data, image.data());

    byte[] polled = http.get("/v1/instances/default/tether/poll?after_seq=0").json().get("frames").get(0).toString()
        .getBytes(StandardCharsets.UTF_8);
    List<Image> read = ((Payload.UserMessage) FrameCodec.standard().read(polled).payloadView()).images();
    assertFalse(read.get(0).isVerified(), "bytes over the wire carry no proof");
    assertEquals(image, read.get(0));
  }
}
