package dev.tether.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Bot-API-shaped server on loopback, for trying {@code tether telegram} without a Telegram
 * account: it hands the bridge two messages in a group (the same image sent twice as a file, first
 * captioned {@code holiday}, then {@code What is in this picture?}), serves {@code getFile} and the
 * file download, and prints every call the bridge makes and every text the bot sends. JDK only, so
 * it runs straight from its source:
 *
 * <pre>{@code java examples/src/main/java/dev/tether/examples/LocalBotApi.java 8081 docs/quickstart.png}</pre>
 *
 * <p>Arguments: the port, the image (PNG, JPEG, GIF or WebP, by its extension), and optionally the
 * group's chat id (default -1001). The bot token can be anything that looks like one.
 */
public final class LocalBotApi {
  private LocalBotApi() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: java LocalBotApi.java PORT IMAGE [GROUP_CHAT_ID]");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    Path image = Path.of(args[1]);
    byte[] bytes = Files.readAllBytes(image);
    long group = args.length > 2 ? Long.parseLong(args[2]) : -1001L;
    String name = image.getFileName().toString();
    String ext = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    String mime = switch (ext) {
      case "png" -> "image/png";
      case "jpg", "jpeg" -> "image/jpeg";
      case "gif" -> "image/gif";
      case "webp" -> "image/webp";
      default -> throw new IllegalArgumentException("the image must be .png, .jpg, .gif or .webp");
    };
    String[] captions = {"holiday", "What is in this picture?"};
    AtomicInteger next = new AtomicInteger();
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    http.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      if (path.startsWith("/file/")) {
        System.out.println("download " + name + " (" + bytes.length + " bytes)");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
        return;
      }
      String method = path.substring(path.lastIndexOf('/') + 1);
      switch (method) {
        case "getUpdates" -> {
          // Like Telegram: every update whose id is at least the offset (the ones before it are confirmed).
          java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"offset\":(\\d+)").matcher(body);
          long offset = m.find() ? Long.parseLong(m.group(1)) : 0;
          StringBuilder updates = new StringBuilder();
          for (int i = 0; i < captions.length; i++) {
            if (i + 1 < offset) {
              continue;
            }
            if (next.get() <= i) {
              next.set(i + 1);
              System.out.println("update " + (i + 1) + ": " + name + " in group " + group + ", caption '" + captions[i] + "'");
            }
            updates.append(updates.length() == 0 ? "" : ",").append("{\"update_id\":").append(i + 1)
                .append(",\"message\":{\"message_id\":").append(i + 1).append(",\"date\":1764000000,")
                .append("\"chat\":{\"id\":").append(group).append(",\"type\":\"supergroup\",\"title\":\"Local group\"},")
                .append("\"from\":{\"id\":7,\"is_bot\":false,\"first_name\":\"Ada\"},\"caption\":\"").append(captions[i])
                .append("\",\"document\":{\"file_id\":\"f1\",\"file_unique_id\":\"u1\",\"file_name\":\"").append(name)
                .append("\",\"mime_type\":\"").append(mime).append("\",\"file_size\":").append(bytes.length).append("}}}");
          }
          if (updates.length() == 0) {
            sleep(1000); // a long poll with nothing new
          }
          reply(exchange, "[" + updates + "]");
        }
        case "getFile" -> {
          System.out.println("getFile f1");
          reply(exchange, "{\"file_id\":\"f1\",\"file_unique_id\":\"u1\",\"file_size\":" + bytes.length
              + ",\"file_path\":\"documents/" + name + "\"}");
        }
        case "sendMessage" -> {
          System.out.println("bot -> group: " + text(body).replace("\\n", "\n                "));
          reply(exchange, "{\"message_id\":100,\"date\":1764000001,\"chat\":{\"id\":" + group + ",\"type\":\"supergroup\"}}");
        }
        default -> reply(exchange, "true"); // sendChatAction and the like
      }
    });
    http.start();
    System.out.println("Bot API stand-in on http://127.0.0.1:" + port + " (Ctrl-C stops it)");
  }

  private static String text(String json) {
    int at = json.indexOf("\"text\"");
    if (at < 0) {
      return json;
    }
    int start = json.indexOf('"', json.indexOf(':', at) + 1) + 1;
    StringBuilder sb = new StringBuilder();
    for (int i = start; i < json.length() && json.charAt(i) != '"'; i++) {
      char c = json.charAt(i);
      if (c == '\\' && i + 1 < json.length()) {
        sb.append(c).append(json.charAt(++i));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static void reply(HttpExchange exchange, String result) throws IOException {
    byte[] bytes = ("{\"ok\":true,\"result\":" + result + "}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
