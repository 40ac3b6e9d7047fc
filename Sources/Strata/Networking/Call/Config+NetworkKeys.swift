extension Config.Key {
  /// How long one attempt may wait for data (an idle timeout).
  public static let idleTimeout: Config.Key = "IDLE_TIMEOUT"
  /// Overall deadline for one call, retries included.
  public static let deadline: Config.Key = "DEADLINE"
  /// How many times a retryable request is retried.
  public static let retryMaxRetries: Config.Key = "RETRY_MAX_RETRIES"
  /// First backoff delay; doubles each retry.
  public static let retryBaseDelay: Config.Key = "RETRY_BASE_DELAY"
  /// Upper bound of any backoff delay (and of `Retry-After`).
  public static let retryMaxDelay: Config.Key = "RETRY_MAX_DELAY"
  /// Largest response body accepted, e.g. `10MiB` (default); larger ones are cut off.
  public static let maxResponseSize: Config.Key = "MAX_RESPONSE_SIZE"
  /// Application name, sent in the User-Agent (and naming the app's own files).
  public static let appName: Config.Key = "APP_NAME"
  /// Where GET answers are kept (``HTTPCache``): `disk` (default, under the app's cache
  /// directory), `memory`, or `off`.
  public static let httpCache: Config.Key = "HTTP_CACHE"
  /// The HTTP cache's byte budget (default `50MiB`).
  public static let httpCacheSize: Config.Key = "HTTP_CACHE_SIZE"
  /// How long past its freshness a kept answer may stand in when the server cannot be
  /// reached (default `1d`).
  public static let httpCacheMaxStale: Config.Key = "HTTP_CACHE_MAX_STALE"
}
