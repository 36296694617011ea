package dev.tether.coven;

import io.grpc.Metadata;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks the gateway's SSH auth headers the way coven-gateway does (authorized-key parse, a
 * timestamp within five minutes, an unused nonce, an SSH signature blob over
 * {@code "timestamp|nonce"}), using only the JDK's Ed25519 and RSA verifiers: independent of the
 * BouncyCastle code that signs.
 */
final class JdkSshVerifier {
  private static final byte[] ED25519_X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

  final Set<String> nonces = ConcurrentHashMap.newKeySet();

  boolean verify(Metadata md) {
    try {
      String pubkey = header(md, "x-ssh-pubkey");
      String signature = header(md, "x-ssh-signature");
      long timestamp = Long.parseLong(header(md, "x-ssh-timestamp"));
      String nonce = header(md, "x-ssh-nonce");
      if (Math.abs(Instant.now().getEpochSecond() - timestamp) > 300 || !nonces.add(nonce)) {
        return false;
      }
      ByteBuffer key = ByteBuffer.wrap(Base64.getDecoder().decode(pubkey.split(" ")[1]));
      String keyType = string(key);
      ByteBuffer sig = ByteBuffer.wrap(Base64.getDecoder().decode(signature));
      String format = string(sig);
      byte[] raw = bytes(sig);
      byte[] message = (timestamp + "|" + nonce).getBytes(StandardCharsets.UTF_8);
      Signature verifier;
      PublicKey publicKey;
      if (keyType.equals("ssh-ed25519") && format.equals("ssh-ed25519")) {
        byte[] x509 = concat(ED25519_X509_PREFIX, bytes(key));
        publicKey = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(x509));
        verifier = Signature.getInstance("Ed25519");
      } else if (keyType.equals("ssh-rsa") && format.equals("rsa-sha2-512")) {
        BigInteger e = new BigInteger(bytes(key));
        BigInteger n = new BigInteger(bytes(key));
        publicKey = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e));
        verifier = Signature.getInstance("SHA512withRSA");
      } else {
        return false;
      }
      verifier.initVerify(publicKey);
      verifier.update(message);
      return verifier.verify(raw);
    } catch (Exception e) {
      return false;
    }
  }

  private static String header(Metadata md, String name) {
    String v = md.get(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER));
    if (v == null) {
      throw new IllegalArgumentException("missing " + name);
    }
    return v;
  }

  private static String string(ByteBuffer b) {
    return new String(bytes(b), StandardCharsets.US_ASCII);
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.getInt()];
    b.get(out);
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
