package dev.agentpersistence.s3;

import java.io.InputStream;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.S3Exceptions;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * S3Proxy's store with {@code If-Match} on PUT applied atomically, as AWS S3 and MinIO apply it. S3Proxy 4.1.0 checks
 * the entity tag before its store writes, without a lock, so two PUTs on one tag that arrive together can both succeed
 * (of 16 at once, two or three did in about one round in five); its {@code If-None-Match: *} is atomic already. Here
 * every write and delete of a key runs under that key's lock, and a PUT with {@code If-Match} checks the tag again
 * under it.
 */
final class AtomicIfMatchBlobStore extends ForwardingBlobStore {
    private static final int STRIPES = 64;

    private final Object[] locks = new Object[STRIPES];

    AtomicIfMatchBlobStore(BlobStore store) {
        super(store);
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new Object();
        }
    }

    private Object lock(String bucket, String key) {
        return locks[Math.floorMod((bucket + "/" + key).hashCode(), STRIPES)];
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream content) {
        synchronized (lock(request.bucket(), request.key())) {
            if (request.ifMatch() != null) {
                HeadObjectResponse current = delegate().blobMetadataIfPresent(request.bucket(), request.key());
                if (current == null) {
                    throw S3Exceptions.fromStatusCode(404);
                }
                if (!unquoted(request.ifMatch()).equals(unquoted(current.eTag()))) {
                    throw S3Exceptions.fromStatusCode(412);
                }
            }
            return delegate().putBlob(request, content);
        }
    }

    @Override
    public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
        synchronized (lock(request.bucket(), request.key())) {
            return delegate().removeBlob(request);
        }
    }

    private static String unquoted(String eTag) {
        return eTag == null ? "" : eTag.replace("\"", "");
    }
}
