/* Folio: the search index the build wrote under search/data/ (Folio.search): loading it one
   small script file at a time, folding text as the build did, finding photos.

   Each file is a call to folioData(kind, key, value), loaded with a <script> element, which also
   works from file://, where fetch does not. meta.js says how the rest is cut: the names of a
   photo row's fields (fields), the keys of the word files (keys), numbers per photo file (shard)
   and the number of identifier files (buckets). See Sources/FolioSite/SearchIndex.swift. */
(function () {
  "use strict";

  var root = Folio.root;

  var slots = {};
  function slot(id) {
    if (!slots[id]) {
      var s = {};
      s.promise = new Promise(function (resolve, reject) { s.resolve = resolve; s.reject = reject; });
      slots[id] = s;
    }
    return slots[id];
  }
  window.folioData = function (kind, key, value) { slot(kind + ":" + key).resolve(value); };

  function load(kind, key, file, url) {
    var s = slot(kind + ":" + key);
    if (!s.started) {
      s.started = true;
      var script = document.createElement("script");
      script.src = url || root + "search/data/" + file;
      script.async = true;
      script.onerror = function () { s.reject(new Error("cannot load " + file)); };
      script.onload = function () { script.remove(); };
      document.head.appendChild(script);
    }
    return s.promise;
  }

  var metaPromise = null;
  function meta() {
    if (!metaPromise) {
      metaPromise = load("meta", "", "meta.js").then(function (m) {
        m.keySet = {};
        m.keys.forEach(function (k) { m.keySet[k] = true; });
        return m;
      });
    }
    return metaPromise;
  }

  // Must match Sources/FolioSite/SearchText.swift (Tests/Browser/test_text_folding.py checks).
  // Accents off (marks on a Latin, Greek, Cyrillic, Hebrew or Arabic letter, or on no letter); other
  // scripts' marks kept, composed again: Japanese が is not か (SearchText.fold).
  var accentScripts = [[0x41, 0x24f], [0x1e00, 0x1eff], [0x2c60, 0x2c7f], [0xa720, 0xa7ff], [0xab30, 0xab6f],
    [0x370, 0x3ff], [0x1f00, 0x1fff], [0x400, 0x52f], [0x1c80, 0x1c8f], [0x2de0, 0x2dff], [0xa640, 0xa69f],
    [0x590, 0x5ff], [0xfb1d, 0xfb4f], [0x600, 0x6ff], [0x750, 0x77f], [0x8a0, 0x8ff], [0xfb50, 0xfdff], [0xfe70, 0xfeff]];
  function takesAccents(code) {
    return accentScripts.some(function (range) { return code >= range[0] && code <= range[1]; });
  }
  function fold(text) {
    var out = "", dropsMarks = true, kept = false;
    for (var ch of text.toLowerCase().normalize("NFD")) {
      if (/\p{M}/u.test(ch)) {
        if (dropsMarks) continue;
        kept = true;
      } else {
        dropsMarks = !/\p{L}/u.test(ch) || takesAccents(ch.codePointAt(0));
      }
      out += ch;
    }
    out = out.replace(/\u03c2/g, "\u03c3");
    return kept ? out.normalize("NFC") : out;
  }
  // Han and kana (SearchText.cjkScripts): a run of them is cut into its pairs of neighbours and its
  // last character (SearchText.scalarWords).
  var cjkScripts = [[0x3005, 0x3007], [0x3040, 0x30ff], [0x31f0, 0x31ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff],
    [0xf900, 0xfaff], [0xff66, 0xff9f], [0x20000, 0x3ffff]];
  function isCJK(code) {
    return cjkScripts.some(function (range) { return code >= range[0] && code <= range[1]; });
  }
  function startsCJK(word) { return word.length > 0 && isCJK(word.codePointAt(0)); }
  function words(text) {
    var out = [];
    (fold(text).match(/[\p{L}\p{N}\p{M}]+/gu) || []).forEach(function (run) {
      var part = [], inCJK = false;
      function end() {
        if (!part.length) return;
        if (inCJK && part.length > 1) {
          for (var i = 0; i + 1 < part.length; i++) out.push(part[i] + part[i + 1]);
          out.push(part[part.length - 1]);
        } else {
          out.push(part.join(""));
        }
        part = [];
      }
      Array.from(run).forEach(function (ch) {
        var cjk = /\p{M}/u.test(ch) ? inCJK : isCJK(ch.codePointAt(0));
        if (cjk !== inCJK) end();
        inCJK = cjk;
        part.push(ch);
      });
      end();
    });
    return out;
  }
  function length(text) { return Array.from(text).length; }
  // The words a query looks for (SearchText.queryWords): each once; beside longer words a lone
  // letter is one being typed and is left out, but not a Chinese or Japanese character standing
  // alone (the last of a longer run is in its last pair already).
  function queryWords(query) {
    var unique = words(query).filter(function (w, i, all) { return all.indexOf(w) === i; });
    if (!unique.some(function (w) { return length(w) > 1; })) return unique;
    return unique.filter(function (w, i) {
      if (length(w) > 1) return true;
      if (!startsCJK(w)) return false;
      var before = i > 0 ? Array.from(unique[i - 1]) : [];
      return before.length < 2 || before[before.length - 1] !== w;
    });
  }
  // The word files a query word needs (SearchText.wordKeys): a lone character matches only
  // itself (a Chinese or Japanese one, every word it begins); a longer word every word it begins,
  // in the files whose key begins it or that it begins.
  function wordKeys(m, word) {
    if (length(word) < 2 && !startsCJK(word)) return m.keySet[word] ? [word] : [];
    return m.keys.filter(function (key) {
      return (length(key) > 1 || startsCJK(key)) && (word.lastIndexOf(key, 0) === 0 || key.lastIndexOf(word, 0) === 0);
    });
  }
  function fileKey(key) {
    return Array.from(key).map(function (ch) {
      if (/^[a-z0-9]$/.test(ch)) return ch;
      return "_" + ("000000" + ch.codePointAt(0).toString(16)).slice(-6);
    }).join("");
  }
  function bucket(id, count) {
    var hash = 2166136261;
    for (var i = 0; i < id.length; i++) {
      hash ^= id.charCodeAt(i);
      hash = Math.imul(hash, 16777619) >>> 0;
    }
    return hash % Math.max(1, count);
  }

  // Every word file `word` needs, as one list of {word: postings} objects.
  function wordFiles(word) {
    return meta().then(function (m) {
      return Promise.all(wordKeys(m, word).map(function (key) { return load("t", key, "t-" + fileKey(key) + ".js"); }));
    });
  }

  // A photo row, by the names meta.js gives its fields, with its page and its place's from the
  // paths meta.js gives (a field's name in braces stands for its value).
  function named(m, row, number) {
    var photo = { n: number };
    m.fields.forEach(function (name, i) { photo[name] = row[i]; });
    function fill(path) {
      return path.replace(/\{(\w+)\}/g, function (_, name) { return encodeURIComponent(photo[name]); });
    }
    photo.href = fill(m.pages.photo);
    photo.placeHref = photo.placeSlug ? fill(m.pages.place) : null;
    return photo;
  }

  function photoAt(number) {
    return meta().then(function (m) {
      var shard = Math.floor(number / m.shard);
      return load("p", String(shard), "p-" + shard + ".js").then(function (list) {
        var row = list[number - shard * m.shard];
        return row ? named(m, row, number) : undefined;
      });
    });
  }

  // The photo with identifier `id`, or null when the site no longer has it.
  function photoById(id) {
    return meta().then(function (m) {
      var b = bucket(id, m.buckets);
      return load("i", String(b), "i-" + b + ".js").then(function (ids) {
        return Object.prototype.hasOwnProperty.call(ids, id) ? photoAt(ids[id]) : null;
      });
    }).catch(function () { return null; });
  }

  function photosById(ids) {
    return Promise.all(ids.map(photoById));
  }

  // Photo numbers matching every word of `query`, best first: a whole word beats the start of
  // one, a word of the title beats one elsewhere; then newest first (highest number).
  function search(query) {
    var unique = queryWords(query);
    if (!unique.length) return Promise.resolve([]);
    return Promise.all(unique.map(function (word) {
      return wordFiles(word).then(function (files) {
        var scores = new Map();
        files.forEach(function (file) {
          Object.keys(file).forEach(function (token) {
            var exact = token === word;
            // SearchText.finds
            if (!exact && ((length(word) < 2 && !startsCJK(word)) || token.lastIndexOf(word, 0) !== 0)) return;
            var posting = 0;
            file[token].forEach(function (delta) {
              posting += delta;
              var n = posting >> 1;
              var score = (exact ? 2 : 1) + (posting & 1 ? 2 : 0);
              if ((scores.get(n) || 0) < score) scores.set(n, score);
            });
          });
        });
        return scores;
      });
    })).then(function (maps) {
      maps.sort(function (a, b) { return a.size - b.size; });
      var results = [];
      maps[0].forEach(function (score, n) {
        var total = score;
        for (var i = 1; i < maps.length; i++) {
          var s = maps[i].get(n);
          if (!s) return;
          total += s;
        }
        results.push([n, total]);
      });
      results.sort(function (a, b) { return b[1] - a[1] || b[0] - a[0]; });
      return results.map(function (r) { return r[0]; });
    });
  }

  // What the page and the box run as the visitor types: once typing pauses for `ms`.
  function debounce(fn, ms) {
    var timer = null;
    return function () { clearTimeout(timer); timer = setTimeout(fn, ms); };
  }

  Folio.search = search;
  Folio.debounce = debounce;
  Folio.words = words;
  Folio.queryWords = queryWords;
  Folio.fold = fold;
  Folio.meta = meta;
  Folio.photoAt = photoAt;
  Folio.photoById = photoById;
  Folio.photosById = photosById;
  // A list of photo numbers the build wrote (sequence.js), at its page-given address.
  Folio.photoList = function (key, url) { return load("s", key, url, url); };
})();
