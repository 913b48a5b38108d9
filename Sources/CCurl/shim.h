#ifndef HOMEFEED_CCURL_SHIM_H
#define HOMEFEED_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
   call (swift-on-linux.md §1.5): one wrapper per argument type. libcurl copies string options
   (CURLOPT_URL, CURLOPT_USERAGENT, …) before returning, so a pointer that lives only for the
   call is safe; a curl_slist must outlive the transfer. */
static inline CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ccurl_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}

/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION take the same callback type. */
static inline CURLcode ccurl_easy_setopt_data_callback(CURL *easy, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

static inline CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode ccurl_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/* CURL_GLOBAL_DEFAULT is a macro expression Swift does not import. */
static inline CURLcode ccurl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

/* CURLVERSION_NOW is a macro. */
static inline const curl_version_info_data *ccurl_version_info(void) { return curl_version_info(CURLVERSION_NOW); }

/* Reads the next "transfer done" message: 1 with the handle and its result, 0 when none is
   left. Other message kinds (libcurl defines none today) are skipped. CURLMsg's union is
   awkward from Swift, hence the wrapper. */
static inline int ccurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result) {
    int remaining = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &remaining)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
#endif
