package dev.tether.examples.spring;

import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.TetherException;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import dev.tether.images.ImageHeaders;
import dev.tether.images.Images;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

/**
 * Takes an uploaded image and a question, sends them to instance {@code default} as one
 * {@code user.message} and answers with the text of the agent's {@code assistant.done} for it
 * (waiting up to 30 s). The image's type is taken from its bytes, never from the upload's header;
 * anything that is not a PNG, JPEG, GIF or WebP image within tether's limits is a 415 or 413 with
 * one line saying why.
 */
@RestController
public class AskController {
  private final TetherClient tether;

  public AskController(TetherClient tether) {
    this.tether = tether;
  }

  @PostMapping("/ask")
  public ResponseEntity<String> ask(@RequestParam("image") MultipartFile upload,
      @RequestParam(name = "question", defaultValue = "What is in this image?") String question)
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    byte[] bytes = upload.getBytes();
    MediaType type = ImageHeaders.signature(bytes, 0, Math.min(bytes.length, 16)).orElse(null);
    if (type == null) {
      return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE).body("not a PNG, JPEG, GIF or WebP image\n");
    }
    Image image;
    try {
      image = Images.fromBytes(bytes, type);
    } catch (TetherException e) {
      return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(e.getMessage() + "\n");
    }
    Frame ask = Frames.hostUserMessage("spring", question, List.of(image));
    SendReceipt sent = tether.send("default", ask).get(10, TimeUnit.SECONDS);
    PollRequest reply = new PollRequest("host", null, sent.ingressSeq(), 1, 30_000, Set.of("assistant.done"), sent.msgId());
    FramePage page = tether.poll("default", reply).get(35, TimeUnit.SECONDS);
    if (page.frames().isEmpty()) {
      return ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT).body("the agent did not answer within 30 s\n");
    }
    return ResponseEntity.ok(((Payload.AssistantDone) page.frames().get(0).payloadView()).text());
  }
}
