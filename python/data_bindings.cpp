#include "python/data_bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "training/shard_schema.h"
#include "training/training_data.h"

namespace py = pybind11;

namespace morne::python {

namespace {

// A numpy array that takes over `values` (no copy): the vector lives as long as the array.
template <class T>
py::array_t<T> handOver(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<T>(std::move(values));
  const py::capsule release(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(std::move(shape), owned->data(), release);
}

// The shuffled rows of some shards, read ahead on a thread of the training data's own
// (training/training_data.h): every row of the files, the validation games set apart.
class ShardStream {
 public:
  ShardStream(const std::vector<std::string>& paths, uint64_t seed, int validation_permille,
              int shuffle_rows) {
    training::DataConfig config;
    config.window.c = static_cast<double>(std::numeric_limits<int64_t>::max());  // every row
    config.validation_permille = validation_permille;
    config.shuffle_rows = shuffle_rows;
    training::ShardIndex index =
        training::indexShardFiles(training::shardFiles(paths), validation_permille);
    shape_ = index.shape;
    scenario_ = index.scenario;
    rows_ = index.rows;
    stream_ = std::make_unique<training::TrainingStream>(std::move(index), config, seed,
                                                         training::DataPosition{});
  }

  py::dict next(int rows) {
    nn::TrainingBatch b;
    {
      py::gil_scoped_release release;
      b = stream_->next(rows);
    }
    const py::ssize_t n = b.size;
    const training::RowShape& s = shape_;
    py::dict out;
    out["planes"] = handOver(std::move(b.planes), {n, s.planes, s.height, s.width});
    out["globals"] = handOver(std::move(b.globals), {n, s.globals});
    out["policy"] = handOver(std::move(b.policy), {n, s.policy});
    out["legal"] = handOver(std::move(b.legal), {n, s.policy});
    out["value"] = handOver(std::move(b.value), {n});
    if (!b.search_value.empty()) out["search_value"] = handOver(std::move(b.search_value), {n});
    if (!b.margin.empty()) out["margin"] = handOver(std::move(b.margin), {n});
    if (!b.control.empty()) out["control"] = handOver(std::move(b.control), {n, s.height, s.width});
    if (!b.short_value.empty()) {
      const auto outputs = static_cast<py::ssize_t>(b.short_value.size()) / n;
      out["short_value"] = handOver(std::move(b.short_value), {n, outputs});
    }
    return out;
  }

  int64_t rows() const { return rows_; }
  int64_t trainingRows() const { return stream_->windowTrainingRows(); }
  const std::string& scenario() const { return scenario_; }
  const training::RowShape& shape() const { return shape_; }

 private:
  training::RowShape shape_;
  std::string scenario_;
  int64_t rows_ = 0;
  std::unique_ptr<training::TrainingStream> stream_;
};

}  // namespace

void bindData(py::module_& m) {
  py::class_<ShardStream>(m, "ShardStream",
                          "The shuffled training rows of self-play shards (morne.read_shards).")
      .def(py::init<const std::vector<std::string>&, uint64_t, int, int>(), py::arg("paths"),
           py::arg("seed") = 1, py::arg("validation_permille") = 0, py::arg("shuffle_rows") = 4096,
           "paths: shard files and folders of shards (*.h5), which must agree on the scenario, "
           "the encoder and the row shape. ValueError names a damaged or foreign file.")
      .def("next", &ShardStream::next, py::arg("rows"),
           "The next `rows` rows as numpy arrays (owned, not copied): planes, globals, policy, "
           "legal, value, and the auxiliary targets the shards hold (search_value, margin, "
           "control, short_value; NaN where unknown).")
      .def_property_readonly("rows", &ShardStream::rows, "Every row of the shards.")
      .def_property_readonly("training_rows", &ShardStream::trainingRows,
                             "The rows outside the validation games.")
      .def_property_readonly("scenario", &ShardStream::scenario)
      .def_property_readonly("shape", [](const ShardStream& s) {
        const training::RowShape& r = s.shape();
        return py::make_tuple(r.planes, r.height, r.width);
      });
  m.def(
      "data_schema",
      [] { return py::module_::import("json").attr("loads")(training::shardSchemaJson().dump()); },
      "The shards' format: attributes and datasets with their types, shapes and meanings.");
}

}  // namespace morne::python
