#ifndef FOLIO_CCURL_SHIM_H
#define FOLIO_CCURL_SHIM_H

#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
   wrapper per kind of argument. */
static inline CURLcode folio_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode folio_curl_set_off(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode folio_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode folio_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode folio_curl_set_list(CURL *curl, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(curl, option, value);
}

typedef size_t (*folio_curl_io)(char *buffer, size_t size, size_t count, void *context);
static inline CURLcode folio_curl_set_io(CURL *curl, CURLoption option, folio_curl_io callback) {
    return curl_easy_setopt(curl, option, callback);
}

typedef int (*folio_curl_progress)(void *context, curl_off_t down_total, curl_off_t down_now,
                                   curl_off_t up_total, curl_off_t up_now);
static inline CURLcode folio_curl_set_progress(CURL *curl, folio_curl_progress callback) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode folio_curl_get_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
static inline CURLcode folio_curl_get_off(CURL *curl, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(curl, info, value);
}

#endif
