package dev.agentpersistence.s3.internal;

/** An object larger than the maximum that may be read; callers turn it into a typed error naming the agent. */
public final class ObjectTooLargeException extends RuntimeException {
    private final String location;

    ObjectTooLargeException(String location, long size, long limit) {
        super("the object has " + size + " bytes, more than the maximum checkpoint size of " + limit);
        this.location = location;
    }

    /** {@code s3://bucket/key}. */
    public String location() {
        return location;
    }
}
