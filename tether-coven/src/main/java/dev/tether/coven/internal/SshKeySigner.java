package dev.tether.coven.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.CryptoException;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.params.RSAPrivateCrtKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.RSADigestSigner;
import org.bouncycastle.crypto.util.OpenSSHPrivateKeyUtil;
import org.bouncycastle.crypto.util.OpenSSHPublicKeyUtil;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * Signs the coven gateway's SSH challenge with an OpenSSH private key.
 *
 * <p>What the gateway checks (coven-gateway {@code internal/auth/ssh.go}): {@code x-ssh-pubkey} is
 * the key in authorized_keys form; {@code x-ssh-signature} is standard base64 of an SSH signature
 * blob ({@code string format, string signature}, RFC 4253 section 6.6) over the raw bytes of
 * {@code "<unix seconds>|<nonce>"}, not the SSHSIG envelope of {@code ssh-keygen -Y sign}; the
 * timestamp must be within five minutes and the nonce unused. Ed25519 keys sign with
 * {@code ssh-ed25519}, RSA keys with {@code rsa-sha2-512}.
 *
 * <p>Why BouncyCastle and not the JDK: the JDK signs Ed25519 (15+) but cannot read the
 * {@code openssh-key-v1} file that {@code ssh-keygen} writes; BouncyCastle's
 * {@link OpenSSHPrivateKeyUtil} and {@link OpenSSHPublicKeyUtil} read and write exactly those
 * formats, so no key format is parsed by hand here. Thread-safe: every call signs anew.
 */
public final class SshKeySigner {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final AsymmetricKeyParameter privateKey;
  private final String algorithm;
  private final String signatureFormat;
  private final byte[] publicBlob;
  private final Clock clock;

  private SshKeySigner(AsymmetricKeyParameter privateKey, AsymmetricKeyParameter publicKey, Clock clock) {
    this.privateKey = privateKey;
    try {
      this.publicBlob = OpenSSHPublicKeyUtil.encodePublicKey(publicKey);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot encode the public key: " + e.getMessage(), e);
    }
    this.algorithm = readString(publicBlob);
    this.signatureFormat = privateKey instanceof Ed25519PrivateKeyParameters ? "ssh-ed25519" : "rsa-sha2-512";
    this.clock = clock;
  }

  /**
   * Loads an unencrypted OpenSSH private key file.
   *
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException when it is not an unencrypted OpenSSH Ed25519 or RSA key
   */
  public static SshKeySigner load(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.US_ASCII);
    try {
      return parse(text, Clock.systemUTC());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** Parses the text of an OpenSSH private key file; {@code clock} gives the signed timestamp. */
  public static SshKeySigner parse(String pem, Clock clock) {
    PemObject object;
    try (PemReader reader = new PemReader(new StringReader(pem))) {
      object = reader.readPemObject();
    } catch (IOException e) {
      throw new IllegalArgumentException("not a PEM file: " + e.getMessage(), e);
    }
    if (object == null || !"OPENSSH PRIVATE KEY".equals(object.getType())) {
      throw new IllegalArgumentException(
          "expected an OpenSSH private key (-----BEGIN OPENSSH PRIVATE KEY-----), as ssh-keygen -t ed25519 writes it");
    }
    AsymmetricKeyParameter key;
    try {
      key = OpenSSHPrivateKeyUtil.parsePrivateKeyBlob(object.getContent());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("cannot read the OpenSSH key (a passphrase-protected key is not supported; "
          + "use a key without a passphrase, readable only by you): " + e.getMessage(), e);
    }
    if (key instanceof Ed25519PrivateKeyParameters ed) {
      return new SshKeySigner(ed, ed.generatePublicKey(), clock);
    }
    if (key instanceof RSAPrivateCrtKeyParameters rsa) {
      return new SshKeySigner(rsa, new RSAKeyParameters(false, rsa.getModulus(), rsa.getPublicExponent()), clock);
    }
    throw new IllegalArgumentException("unsupported key type " + key.getClass().getSimpleName()
        + "; use an Ed25519 key (ssh-keygen -t ed25519) or an RSA key");
  }

  /** For tests: a signer for a key pair made in memory. */
  static SshKeySigner of(AsymmetricCipherKeyPair pair, Clock clock) {
    return new SshKeySigner(pair.getPrivate(), pair.getPublic(), clock);
  }

  /** The key in authorized_keys form, such as {@code ssh-ed25519 AAAAC3Nza...}. */
  public String authorizedKey() {
    return algorithm + " " + Base64.getEncoder().encodeToString(publicBlob);
  }

  /** OpenSSH's fingerprint of the key, {@code SHA256:...}, for logs. */
  public String fingerprint() {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(publicBlob);
      return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  /** The four headers for one new stream: a fresh nonce and the current time, signed. */
  public Map<String, String> authHeaders() {
    long timestamp = clock.instant().getEpochSecond();
    byte[] nonceBytes = new byte[16];
    RANDOM.nextBytes(nonceBytes);
    String nonce = HexFormat.of().formatHex(nonceBytes);
    byte[] signature = sign((timestamp + "|" + nonce).getBytes(StandardCharsets.UTF_8));
    return Map.of(
        "x-ssh-pubkey", authorizedKey(),
        "x-ssh-signature", Base64.getEncoder().encodeToString(signature),
        "x-ssh-timestamp", Long.toString(timestamp),
        "x-ssh-nonce", nonce);
  }

  /** The SSH signature blob ({@code string format, string signature}) over {@code message}. */
  public byte[] sign(byte[] message) {
    Signer signer = privateKey instanceof Ed25519PrivateKeyParameters ? new Ed25519Signer() : new RSADigestSigner(new SHA512Digest());
    signer.init(true, privateKey);
    signer.update(message, 0, message.length);
    byte[] raw;
    try {
      raw = signer.generateSignature();
    } catch (CryptoException e) {
      throw new IllegalStateException("signing failed: " + e.getMessage(), e);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length + 32);
    writeString(out, signatureFormat.getBytes(StandardCharsets.US_ASCII));
    writeString(out, raw);
    return out.toByteArray();
  }

  private static void writeString(ByteArrayOutputStream out, byte[] value) {
    int n = value.length;
    out.write(n >>> 24);
    out.write(n >>> 16);
    out.write(n >>> 8);
    out.write(n);
    out.write(value, 0, n);
  }

  private static String readString(byte[] blob) {
    Objects.checkFromIndexSize(0, 4, blob.length);
    int n = ((blob[0] & 0xff) << 24) | ((blob[1] & 0xff) << 16) | ((blob[2] & 0xff) << 8) | (blob[3] & 0xff);
    return new String(blob, 4, n, StandardCharsets.US_ASCII);
  }

  @Override
  public String toString() {
    return "SshKeySigner[" + algorithm + " " + fingerprint() + "]";
  }
}
