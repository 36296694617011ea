package dev.tether.examples.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the application for real on a free port, posts an image and reads the agent's reply. */
class ImageAskApplicationTest {
  static ConfigurableApplicationContext app;
  static URI ask;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() {
    app = SpringApplication.run(ImageAskApplication.class, "--server.port=0", "--server.address=127.0.0.1");
    ask = URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + "/ask");
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  static byte[] png(int w, int h) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB), "png", out);
    return out.toByteArray();
  }

  /** A multipart/form-data body with the file part "image" and the text part "question". */
  HttpResponse<String> post(byte[] file, String declaredType, String question) throws Exception {
    String boundary = "tether-example-boundary";
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"question\"\r\n\r\n" + question + "\r\n")
        .getBytes(StandardCharsets.UTF_8));
    body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"image\"; filename=\"x\"\r\nContent-Type: "
        + declaredType + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
    body.write(file);
    body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    HttpRequest request = HttpRequest.newBuilder(ask).timeout(Duration.ofSeconds(40))
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void anUploadedImageIsAnsweredByTheAgent() throws Exception {
    HttpResponse<String> reply = post(png(160, 120), "image/jpeg", "What is this?");
    assertEquals(200, reply.statusCode(), reply.body());
    assertTrue(reply.body().contains("You asked: What is this?"), reply.body());
    assertTrue(reply.body().contains("I see a 160x120 image/png image."), "the type comes from the bytes: " + reply.body());
  }

  @Test
  void bytesThatAreNotAnImageAreA415WithOneLine() throws Exception {
    HttpResponse<String> reply = post("<svg/>".getBytes(StandardCharsets.UTF_8), "image/png", "?");
    assertEquals(415, reply.statusCode());
    assertEquals("not a PNG, JPEG, GIF or WebP image\n", reply.body());
  }
}
