package dev.tether.whatsapp.internal;

import dev.tether.chat.BridgeHost;
import dev.tether.chat.ChatListener;
import dev.tether.client.AttachmentClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/**
 * The settings of a WhatsApp bridge, as {@link dev.tether.whatsapp.WhatsAppBridge.Builder} validated them. Immutable.
 *
 * @param host the tether side
 * @param phoneNumberId the business phone number id whose messages are bridged
 * @param allowedNumbers the customers' WhatsApp ids whose messages are forwarded and answered
 * @param stateDir where the cursor and media references are kept
 * @param lazy whether media is announced ({@code wa_} refs) rather than downloaded
 * @param mediaTtl how long a reference stays fetchable
 * @param maxRefs the most references kept
 * @param inlineImageMaxBytes fetched images up to this size are answered inline
 * @param maxDownloadBytes the largest media downloaded (WhatsApp: 100 MB for documents)
 * @param retryInitial the first backoff
 * @param retryMax the longest backoff
 * @param attachments where eager non-image media is stored as session attachments; null: a notice
 * @param clock the registry's clock
 * @param listener told what the bridge receives, forwards and sends (meters)
 */
public record WhatsAppConfig(
    BridgeHost host,
    String phoneNumberId,
    Set<String> allowedNumbers,
    Path stateDir,
    boolean lazy,
    Duration mediaTtl,
    int maxRefs,
    long inlineImageMaxBytes,
    long maxDownloadBytes,
    Duration retryInitial,
    Duration retryMax,
    AttachmentClient attachments,
    Clock clock,
    ChatListener listener) {
  public WhatsAppConfig {
    allowedNumbers = Set.copyOf(allowedNumbers);
  }

  public boolean allowed(String waId) {
    return allowedNumbers.contains(waId);
  }
}
