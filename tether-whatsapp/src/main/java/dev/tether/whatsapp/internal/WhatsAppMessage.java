package dev.tether.whatsapp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.media.MediaKind;
import java.util.ArrayList;
import java.util.List;

/**
 * A customer's message from a webhook delivery ({@code entry[].changes[].value.messages[]}, field
 * {@code messages}), with only the fields the bridge reads. Status updates and messages to another
 * phone number id are not messages: {@link #parse} leaves them out.
 *
 * @param id WhatsApp's message id ({@code wamid...}), for duplicate detection
 * @param from the customer's WhatsApp id
 * @param name the customer's profile name, or empty
 * @param text the text, or the media's caption
 * @param media the media it carries, or null
 */
public record WhatsAppMessage(String id, String from, String name, String text, Media media) {
  /**
   * Media as the webhook describes it; nothing is downloaded.
   *
   * @param mediaId the id to resolve at fetch time
   * @param fileName the document's file name, or null
   */
  public record Media(MediaKind kind, String mediaId, String mimeType, String fileName) {}

  /** The messages of a delivery addressed to {@code phoneNumberId}. */
  public static List<WhatsAppMessage> parse(JsonNode delivery, String phoneNumberId) {
    List<WhatsAppMessage> out = new ArrayList<>();
    if (delivery == null || !"whatsapp_business_account".equals(delivery.path("object").asText())) {
      return out;
    }
    for (JsonNode entry : delivery.path("entry")) {
      for (JsonNode change : entry.path("changes")) {
        JsonNode value = change.path("value");
        if (!"messages".equals(change.path("field").asText()) || !phoneNumberId.equals(value.path("metadata").path("phone_number_id").asText())) {
          continue;
        }
        String name = value.path("contacts").path(0).path("profile").path("name").asText("");
        for (JsonNode m : value.path("messages")) {
          String type = m.path("type").asText("");
          Media media = null;
          String text = "";
          switch (type) {
            case "text" -> text = m.path("text").path("body").asText("");
            case "image", "document", "audio", "video", "sticker" -> {
              JsonNode node = m.path(type);
              MediaKind kind = switch (type) {
                case "image" -> MediaKind.IMAGE;
                case "document" -> MediaKind.DOCUMENT;
                case "audio" -> node.path("voice").asBoolean(false) ? MediaKind.VOICE : MediaKind.AUDIO;
                case "video" -> MediaKind.VIDEO;
                default -> MediaKind.STICKER;
              };
              media = new Media(kind, node.path("id").asText(""), node.path("mime_type").asText(null),
                  node.path("filename").isTextual() ? node.path("filename").asText() : null);
              text = node.path("caption").asText("");
            }
            default -> {
              continue; // reactions, locations, contacts, interactive replies: not forwarded
            }
          }
          out.add(new WhatsAppMessage(m.path("id").asText(""), m.path("from").asText(""), name, text, media));
        }
      }
    }
    return out;
  }
}
