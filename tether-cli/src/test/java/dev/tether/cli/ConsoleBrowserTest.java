package dev.tether.cli;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tether.server.testing.Fixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, never a downloaded browser) against a real {@code tether serve
 * --with-agent --console 127.0.0.1:0} in its own JVM. Skipped only where
 * {@code /usr/bin/chromedriver} is not installed ({@code .ci/run} installs it).
 *
 * <p>Instances: {@code default} (answered by the demo agent), {@code gaps}, {@code xss} and {@code blobs}, with a
 * ring of 4 frames each so that eviction is easy to cause. {@code -Dconsole.screenshot=FILE} also
 * copies the conversation screenshot there (the README's {@code docs/console.png}); it is always
 * written to {@code target/console.png}.
 */
class ConsoleBrowserTest {
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path BROWSER = Path.of("/usr/bin/chromium");
  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir static Path dir;
  private static ChildJvm serve;
  private static ChromeDriver driver;
  private static String base;
  private static String token;
  // Selenium warns that it has no CDP bindings for this Chromium; WebDriver itself needs none.
  private static final java.util.logging.Logger SELENIUM_LOG = java.util.logging.Logger.getLogger("org.openqa.selenium");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

  @BeforeAll
  static void start() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(DRIVER) && Files.isExecutable(BROWSER),
        "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)");
    serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", dir.resolve("t.sock").toString(), "--with-agent",
        "--console", "127.0.0.1:0", "--instance", "default", "--instance", "gaps", "--instance", "xss", "--instance", "blobs",
        "--ring-max-frames", "4");
    Matcher url = serve.awaitStderr("tether serve: console: (http://127\\.0\\.0\\.1:\\d+/)#token=([A-Za-z0-9_-]{43})$", 60_000);
    base = url.group(1);
    token = url.group(2);
    serve.awaitStderr("tether agent: ready", 60_000);

    SELENIUM_LOG.setLevel(java.util.logging.Level.SEVERE);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(BROWSER.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,943",
        "--user-data-dir=" + dir.resolve("chromium-profile"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(DRIVER.toFile()).usingAnyFreePort().build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(WAIT);
  }

  @AfterAll
  static void stop() throws Exception {
    if (driver != null) {
      driver.quit();
    }
    if (serve != null) {
      serve.close();
    }
  }

  @BeforeEach
  void noAlertLeftOpen() {
    if (driver != null) {
      try {
        driver.switchTo().alert().dismiss();
      } catch (NoAlertPresentException expected) {
        // nothing to dismiss
      }
    }
  }

  /** POSTs a frame through the console's API, with its token, as any client of it would. */
  private static void post(String instance, String frameJson) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(URI.create(base + "v1/instances/" + instance + "/tether"))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(frameJson)).timeout(Duration.ofSeconds(60)).build();
    HttpResponse<String> answer = HTTP.send(r, HttpResponse.BodyHandlers.ofString());
    assertEquals(202, answer.statusCode(), answer.body());
  }

  private static String userMessage(String session, String text) {
    return "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":" + Json.MAPPER.valueToTree(session)
        + "},\"payload\":{\"text\":" + Json.MAPPER.valueToTree(text) + "}}";
  }

  private static WebDriverWait waiting() {
    return new WebDriverWait(driver, WAIT);
  }

  private static Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  private static void openConsole() {
    driver.get("about:blank"); // a new page, not a fragment change of the last one
    driver.get(base + "#token=" + token);
    waiting().until(d -> !d.findElements(By.cssSelector("#instances .instance")).isEmpty());
  }

  private static void openSession(String instance, String channelAndId) {
    By button = By.xpath("//li[@data-instance='" + instance + "']//button[@class='session' or contains(@class,'session')][text()='"
        + channelAndId + "']");
    long[] lastRefresh = {System.nanoTime()};
    waiting().until(d -> {
      if (!d.findElements(button).isEmpty()) {
        return true;
      }
      if (System.nanoTime() - lastRefresh[0] > 5_000_000_000L) { // frames posted after the page listed the sessions
        d.findElement(By.id("refresh")).click();
        lastRefresh[0] = System.nanoTime();
      }
      return false;
    });
    driver.findElement(button).click();
    waiting().until(d -> d.findElement(By.id("session-title")).getText().equals(instance + " \u00b7 " + channelAndId));
  }

  @Test
  void openWithToken_listsInstancesWithCounts() {
    openConsole();
    waiting().until(d -> d.findElements(By.cssSelector("#instances .instance")).size() == 4);
    List<String> names = driver.findElements(By.cssSelector("#instances .instance-name")).stream().map(WebElement::getText).toList();
    assertEquals(List.of("blobs", "default", "gaps", "xss"), names.stream().sorted().toList());
    String counts = driver.findElement(By.cssSelector("#instances .counts")).getText();
    assertTrue(counts.matches("frames \\d+ \u00b7 [\\d,]+ bytes \u00b7 oldest seq \\d+ \u00b7 next seq \\d+ \u00b7 waiters \\d+"), counts);
    assertEquals("", js("return location.hash"), "the token leaves the address bar");
    assertEquals(token, js("return sessionStorage.getItem('tether-token')"));
  }

  @Test
  void sendPngAskingForChart_streamsTheAnswer_andRendersTheChart() throws Exception {
    Path png = dir.resolve("photo.png");
    Files.write(png, Fixtures.picture("png", 160, 120));
    openConsole();
    driver.findElement(By.id("new-session-id")).sendKeys("chart-demo");
    driver.findElement(By.cssSelector("#new-session button")).click();
    waiting().until(d -> d.findElement(By.id("send")).isDisplayed());
    driver.findElement(By.id("files")).sendKeys(png.toString());
    waiting().until(d -> d.findElements(By.cssSelector("#attachments img")).size() == 1);
    driver.findElement(By.id("text")).sendKeys("What is in this picture? Then draw a chart of 3 1 4 1 5");
    driver.findElement(By.id("send-button")).click();

    // The answer is done: its text and a chart whose decoded size is the painter's 640x400.
    By answerImage = By.cssSelector(".turn.assistant.done figure img");
    waiting().until(d -> !d.findElements(answerImage).isEmpty()
        && (Boolean) js("const i = arguments[0]; return i.complete && i.naturalWidth > 0;", d.findElement(answerImage)));
    WebElement chart = driver.findElement(answerImage);
    assertEquals(640L, js("return arguments[0].naturalWidth", chart));
    assertEquals(400L, js("return arguments[0].naturalHeight", chart));
    WebElement answer = driver.findElement(By.cssSelector(".turn.assistant.done"));
    assertTrue(answer.findElement(By.className("turn-text")).getText().contains("Here is a bar chart of 5 values"), answer.getText());
    String head = answer.findElement(By.className("role")).getText();
    assertTrue(head.matches("assistant \u00b7 \\d+ deltas? streamed"), "the answer was streamed in before it was done: " + head);
    waiting().until(d -> answer.findElement(By.tagName("figcaption")).getText().startsWith("image/png, 640x400, "));

    // The user's own turn, with the picture it sent.
    WebElement mine = driver.findElement(By.cssSelector(".turn.user"));
    assertTrue(mine.getText().contains("What is in this picture?"), mine.getText());
    WebElement photo = mine.findElement(By.cssSelector("figure img"));
    waiting().until(d -> (Long) js("return arguments[0].naturalWidth", photo) == 160L);
    assertEquals("image/png, 160x120, " + String.format("%,d", Files.size(png)) + " bytes",
        mine.findElement(By.tagName("figcaption")).getText());
    waiting().until(d -> d.findElement(By.id("presence")).getText().equals("agent: idle"));

    // The raw view elides image bytes.
    answer.findElement(By.className("raw-toggle")).click();
    String raw = answer.findElement(By.cssSelector("pre.raw")).getText();
    assertTrue(raw.matches("(?s).*\"data\": \"<[\\d]+ bytes elided>\".*"), raw);
    assertTrue(raw.contains("\"type\": \"assistant.done\""), raw);
    answer.findElement(By.className("raw-toggle")).click();

    // The counts follow: the question, thinking, the answer and idle are the 4 frames of the ring.
    waiting().until(d -> d.findElement(By.cssSelector("li[data-instance='default'] .counts")).getText().startsWith("frames 4 "));
    Path shot = Path.of("target", "console.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, driver.getScreenshotAs(OutputType.BYTES));
    String copy = System.getProperty("console.screenshot");
    if (copy != null && !copy.isBlank()) {
      Files.copy(shot, Path.of(copy), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  @Test
  void evictedFrames_showTheGapBanner() throws Exception {
    for (int i = 1; i <= 6; i++) {
      post("gaps", userMessage("g", "message " + i)); // a ring of 4: messages 1 and 2 are evicted
    }
    openConsole();
    openSession("gaps", "host:g");
    WebElement banner = driver.findElement(By.id("gap"));
    waiting().until(d -> banner.isDisplayed());
    assertTrue(banner.getText().startsWith("Older frames evicted"), banner.getText());
    waiting().until(d -> d.findElements(By.cssSelector(".turn.user")).size() == 4);
    assertEquals("message 3", driver.findElements(By.cssSelector(".turn.user .turn-text")).get(0).getText());
  }

  @Test
  void frameTextWithMarkup_isShownAsText_neverRun() throws Exception {
    String markup = "<script>alert('xss')</script><img src=x onerror=\"alert('xss')\"><b>bold</b>";
    post("xss", userMessage("x", markup));
    post("xss", "{\"v\":1,\"type\":\"error\",\"session\":{\"channel\":\"host\",\"id\":\"x\"},"
        + "\"payload\":{\"code\":\"<i>BOOM</i>\",\"message\":\"<img src=x onerror=alert(2)>\"}}");
    openConsole();
    openSession("xss", "host:x");
    waiting().until(d -> d.findElements(By.cssSelector(".turn.error")).size() == 1);
    assertEquals(markup, driver.findElement(By.cssSelector(".turn.user .turn-text")).getText());
    assertEquals("<i>BOOM</i>: <img src=x onerror=alert(2)>", driver.findElement(By.cssSelector(".turn.error .turn-text")).getText());
    assertEquals(0L, js("return document.querySelectorAll('#turns script, #turns img, #turns b, #turns i').length"));
    assertThrows(NoAlertPresentException.class, () -> driver.switchTo().alert());
  }

  @Test
  void withoutOrWithWrongToken_thePageShowsTheRefusal() throws Exception {
    driver.get(base);
    js("sessionStorage.clear()");
    driver.get(base + "?fresh");
    WebElement error = driver.findElement(By.id("error"));
    waiting().until(d -> error.isDisplayed());
    assertTrue(error.getText().startsWith("No token"), error.getText());

    driver.get(base + "#token=wrong-token");
    waiting().until(d -> d.findElement(By.id("error")).getText().contains("UNAUTHORIZED"));
    assertTrue(driver.findElements(By.cssSelector("#instances .instance")).isEmpty());

    HttpResponse<String> api = HTTP.send(HttpRequest.newBuilder(URI.create(base + "v1/instances")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(401, api.statusCode());
    js("sessionStorage.clear()");
  }

  @Test
  void attachments_areCheckedInThePage_beforeAnyUpload() throws Exception {
    Path text = dir.resolve("notes.txt");
    Files.writeString(text, "not an image");
    Path big = dir.resolve("big.png");
    byte[] png = Fixtures.picture("png", 8, 8);
    byte[] padded = java.util.Arrays.copyOf(png, 10 * 1024 * 1024 + 1); // a PNG signature, one byte over 10 MiB
    Files.write(big, padded);
    openConsole();
    driver.findElement(By.id("new-session-id")).sendKeys("limits");
    driver.findElement(By.cssSelector("#new-session button")).click();
    waiting().until(d -> d.findElement(By.id("send")).isDisplayed());
    WebElement error = driver.findElement(By.id("send-error"));

    driver.findElement(By.id("files")).sendKeys(text.toString());
    waiting().until(d -> d.findElements(By.cssSelector("#attachments .attachment.file")).size() == 1); // any file is attached
    assertEquals("", error.getText());
    driver.findElement(By.id("files")).sendKeys(big.toString());
    waiting().until(d -> error.getText().startsWith("big.png has 10,485,761 bytes; an image may have at most 10 MiB"));
    StringBuilder five = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      Path p = dir.resolve("p" + i + ".png");
      Files.write(p, Fixtures.picture("png", 10 + i, 10));
      five.append(i == 0 ? "" : "\n").append(p);
    }
    driver.findElement(By.id("files")).sendKeys(five.toString());
    waiting().until(d -> error.getText().equals("a message carries at most 4 images, not 5"));
    assertTrue(driver.findElements(By.cssSelector("#attachments img")).isEmpty(), "nothing refused is attached");
    assertEquals(1, driver.findElements(By.cssSelector("#attachments .attachment")).size(), "only notes.txt");
    assertTrue(driver.findElements(By.cssSelector(".turn")).isEmpty(), "nothing was sent");
  }

  @Test
  void droppedPyFileAndPng_becomeSessionAttachments_readThroughTetherMcp() throws Exception {
    post("blobs", userMessage("attach-demo", "here come two files"));
    openConsole();
    openSession("blobs", "host:attach-demo");
    waiting().until(d -> d.findElement(By.id("send")).isDisplayed());
    String code = "def add(a, b):\n    return a + b\n";
    // One drop with two files, as a user drags them from a file manager: the types are the browser's file.type.
    js("const code = arguments[0]; const c = document.createElement('canvas'); c.width = 30; c.height = 20;"
        + "c.toBlob((b) => { const dt = new DataTransfer();"
        + "dt.items.add(new File([code], 'add.py', { type: 'text/x-python' }));"
        + "dt.items.add(new File([b], 'shot.png', { type: 'image/png' }));"
        + "document.getElementById('send').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true })); }, 'image/png');",
        code);
    waiting().until(d -> d.findElements(By.cssSelector("#attachments .attachment")).size() == 2);
    assertEquals("text/x-python", driver.findElement(By.cssSelector("#attachments .attachment.file .file-type")).getText());
    driver.findElement(By.id("text")).sendKeys("please review");
    driver.findElement(By.id("send-button")).click();
    waiting().until(d -> d.findElements(By.cssSelector(".turn.user")).size() == 2);
    WebElement turn = driver.findElements(By.cssSelector(".turn.user")).get(1);
    String said = turn.findElement(By.className("turn-text")).getText();
    assertTrue(said.startsWith("please review\n[Attachment: add.py (" + code.length() + " bytes, text/x-python)]\n[Attachment: shot.png ("), said);
    assertTrue(said.endsWith(" bytes, image/png)]"), said);
    waiting().until(d -> (Long) js("return arguments[0].naturalWidth", turn.findElement(By.cssSelector("figure img"))) == 30L);

    Map<String, Object> session = Map.of("instance", "blobs", "session_id", "attach-demo");
    try (McpSdkChild mcp = McpSdkChild.start(dir, "--host", "unix:" + dir.resolve("t.sock"))) {
      String listed = McpSdkChild.text(mcp.call("list_attachments", session));
      assertTrue(listed.matches("- add\\.py \\(" + code.length() + " bytes, text/x-python\\)\n- shot\\.png \\(\\d+ bytes, image/png\\)"), listed);
      var read = mcp.call("read_attachment", Map.of("instance", "blobs", "session_id", "attach-demo", "filename", "add.py"));
      assertEquals(code, McpSdkChild.text(read));
      var view = mcp.call("view_attachment", Map.of("instance", "blobs", "session_id", "attach-demo", "filename", "shot.png"));
      java.awt.image.BufferedImage seen = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(McpSdkChild.image(view)));
      assertEquals(30, seen.getWidth());
      assertEquals(20, seen.getHeight());
    }
  }

  @Test
  void blobRefImage_isFetchedWithTheToken_andADroppedImageIsSentInline() throws Exception {
    byte[] png = Fixtures.picture("png", 48, 36);
    HttpResponse<String> upload = HTTP.send(HttpRequest.newBuilder(URI.create(base + "v1/instances/blobs/blob"))
        .header("Authorization", "Bearer " + token).header("Content-Type", "image/png")
        .POST(HttpRequest.BodyPublishers.ofByteArray(png)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, upload.statusCode(), upload.body());
    String key = Json.MAPPER.readTree(upload.body()).path("blob").asText();
    post("blobs", "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"b\"},"
        + "\"payload\":{\"text\":\"by ref\",\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"size\":" + png.length + "}]}}");
    openConsole();
    openSession("blobs", "host:b");
    By byRef = By.cssSelector(".turn.user figure img");
    waiting().until(d -> !d.findElements(byRef).isEmpty() && (Long) js("return arguments[0].naturalWidth", d.findElement(byRef)) == 48L);
    assertTrue((Boolean) js("return arguments[0].src.startsWith('blob:')", driver.findElement(byRef)));
    waiting().until(d -> d.findElement(By.cssSelector(".turn.user figcaption")).getText()
        .equals("image/png, 48x36, " + String.format("%,d", png.length) + " bytes"));

    // Drag and drop: a PNG dropped on the send box is attached, then sent inline.
    js("const c = document.createElement('canvas'); c.width = 30; c.height = 20;"
        + "c.toBlob((b) => { const dt = new DataTransfer(); dt.items.add(new File([b], 'drop.png', { type: 'image/png' }));"
        + "document.getElementById('send').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true })); }, 'image/png');");
    waiting().until(d -> d.findElements(By.cssSelector("#attachments img")).size() == 1);
    driver.findElement(By.id("text")).sendKeys("dropped");
    driver.findElement(By.id("send-button")).click();
    waiting().until(d -> d.findElements(By.cssSelector(".turn.user")).size() == 2);
    WebElement sent = driver.findElements(By.cssSelector(".turn.user")).get(1);
    WebElement dropped = sent.findElement(By.cssSelector("figure img"));
    waiting().until(d -> (Long) js("return arguments[0].naturalWidth", dropped) == 30L);
    assertTrue((Boolean) js("return arguments[0].src.startsWith('data:image/png;base64,')", dropped));
  }

  @Test
  void approvalRequest_showsItsButtons_andApprovePostsTheAnswerInItsSession() throws Exception {
    post("gaps", "{\"v\":1,\"type\":\"event.tool_approval_request\",\"session\":{\"channel\":\"host\",\"id\":\"ok\"},"
        + "\"msg_id\":\"m-ok\",\"payload\":{\"id\":\"c1\",\"name\":\"draw_chart\",\"input\":{\"request\":\"<b>chart</b>\"}}}");
    openConsole();
    openSession("gaps", "host:ok");
    waiting().until(d -> d.findElements(By.cssSelector(".turn.approval .approval-approve")).size() == 1);
    assertTrue(driver.findElement(By.cssSelector(".turn.approval .turn-text")).getText()
        .contains("draw_chart {\"request\":\"<b>chart</b>\"}"), "input shown as text");
    driver.findElement(By.cssSelector(".turn.approval .approval-approve")).click();
    waiting().until(d -> d.findElement(By.cssSelector(".turn.approval .role")).getText().equals("approval: approve"));
    assertTrue(driver.findElements(By.cssSelector(".approval-buttons")).isEmpty(), "answered once");
    HttpResponse<String> answers = HTTP.send(HttpRequest.newBuilder(URI.create(base
        + "v1/instances/gaps/tether/poll?after_seq=0&channel=host&session_id=ok&types=control.tool_approval"))
        .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    JsonNode frames = Json.MAPPER.readTree(answers.body()).path("frames");
    assertEquals(1, frames.size(), answers.body());
    assertEquals("m-ok", frames.get(0).path("msg_id").asText());
    assertEquals("c1", frames.get(0).path("payload").path("id").asText());
    assertEquals("approve", frames.get(0).path("payload").path("decision").asText());
  }
}
