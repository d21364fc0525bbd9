package dev.agentpersistence.codec;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256, the one keyed hash the stored form derives keys and nonces with. */
final class HmacSha256 {
    private HmacSha256() {}

    /** {@code key} as an HMAC-SHA256 key. */
    static SecretKeySpec key(byte[] key) {
        return new SecretKeySpec(key, "HmacSHA256");
    }

    /** The HMAC-SHA256 of {@code data} under {@code key}. */
    static byte[] of(SecretKeySpec key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    /** The HMAC-SHA256 of {@code data} under the raw {@code key}. */
    static byte[] of(byte[] key, byte[] data) {
        return of(key(key), data);
    }
}
