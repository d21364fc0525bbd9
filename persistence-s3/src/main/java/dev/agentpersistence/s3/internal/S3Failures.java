package dev.agentpersistence.s3.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.redaction.Redactor;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Turns SDK exceptions into the library's, naming the operation, the object and the endpoint. */
final class S3Failures {
    private static final Redactor REDACTOR = Redactor.patternsOnly();

    private S3Failures() {}

    /**
     * The exception to throw for {@code original}.
     *
     * @param action what was being done ("reading", "writing", "listing")
     * @param location {@code s3://bucket/key} or {@code s3://bucket/prefix}
     * @param endpoint where requests go, for messages
     */
    static PersistenceException translate(SdkException original, String action, String location, String endpoint) {
        // SDK messages may quote request URLs; the endpoint's own credentials are already hidden in endpoint
        Throwable failure = REDACTOR.redact(original);
        String where = " " + action + " " + location + " (endpoint " + endpoint + ")";
        if (original instanceof S3Exception s3) {
            String code =
                    s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            int status = s3.statusCode();
            if ("NoSuchBucket".equals(code)) {
                return new StorageUnavailableException(
                        "S3 bucket of " + location + " does not exist:" + where, failure);
            }
            if (status == 401
                    || status == 403
                    || "InvalidAccessKeyId".equals(code)
                    || "SignatureDoesNotMatch".equals(code)
                    || "AccessDenied".equals(code)) {
                return new StorageUnavailableException(
                        "S3 refused access (" + describe(code, status)
                                + "; check the credentials and their permissions) while" + where,
                        failure);
            }
            if (status >= 500 || status == 429 || status == 408) {
                return new StorageUnavailableException(
                        "S3 is unavailable (" + describe(code, status) + ") while" + where, failure);
            }
            return new PersistenceException(
                    "S3 rejected a request (" + describe(code, status) + ") while" + where, failure);
        }
        if (original instanceof SdkClientException) {
            return new StorageUnavailableException(
                    "Cannot reach S3 while" + where + ": " + failure.getMessage(), failure);
        }
        return new StorageUnavailableException(
                "S3 request failed while" + where + ": " + failure.getMessage(), failure);
    }

    private static String describe(String code, int status) {
        return (code == null ? "HTTP " : code + ", HTTP ") + status;
    }
}
