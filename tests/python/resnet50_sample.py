#!/usr/bin/python3
"""A classification script written the way the pyACL ResNet-50 sample is (Ascend/samples,
python/level2_simple_inference/1_classification/resnet50_imagenet_classification): the same acl
calls in the same order, this project's own code. Loads the model, and per image: resizes to
256x256, crops 224x224, BGR, subtracts the channel means in fp16, NCHW; copies it to the device
through acl.util.bytes_to_ptr, executes, copies the output back into acl.rt.malloc_host memory,
reads it with acl.mdl.get_cur_output_dims and acl.util.ptr_to_bytes, and prints the top 5.

    resnet50_sample.py --model_path MODEL.om --images_path DIR

Prints "[<class>]: <score>" lines after a "top5" header per image; exits non-zero on failure.
"""
import argparse
import os

import numpy as np
from PIL import Image

import acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp")


def check(what, ret):
    if ret != ACL_SUCCESS:
        raise RuntimeError(f"{what} failed ret={ret}: {acl.get_recent_err_msg()}")


def preprocess(path):
    with Image.open(path) as image:
        pixels = np.array(image.convert("RGB").resize((256, 256)))
    top = (pixels.shape[0] - 224) // 2
    left = (pixels.shape[1] - 224) // 2
    bgr = pixels[top:top + 224, left:left + 224, ::-1].astype("float16")
    bgr[:, :, 0] -= 104
    bgr[:, :, 1] -= 117
    bgr[:, :, 2] -= 123
    return np.ascontiguousarray(bgr.reshape((1, 224, 224, 3)).transpose(0, 3, 1, 2))


class Classifier:
    def __init__(self, device_id, model_path):
        self.device_id = device_id
        check("acl.init", acl.init())
        check("acl.rt.set_device", acl.rt.set_device(device_id))
        self.context, ret = acl.rt.create_context(device_id)
        check("acl.rt.create_context", ret)
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        check("acl.mdl.load_from_file", ret)
        self.desc = acl.mdl.create_desc()
        check("acl.mdl.get_desc", acl.mdl.get_desc(self.desc, self.model_id))
        self.inputs = self._device_buffers(acl.mdl.get_num_inputs(self.desc), acl.mdl.get_input_size_by_index)
        self.outputs = self._device_buffers(acl.mdl.get_num_outputs(self.desc), acl.mdl.get_output_size_by_index)

    def _device_buffers(self, count, size_of):
        buffers = []
        for index in range(count):
            size = size_of(self.desc, index)
            pointer, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            check("acl.rt.malloc", ret)
            buffers.append({"buffer": pointer, "size": size})
        return buffers

    def _dataset(self, buffers):
        dataset = acl.mdl.create_dataset()
        for item in buffers:
            data = acl.create_data_buffer(item["buffer"], item["size"])
            _, ret = acl.mdl.add_dataset_buffer(dataset, data)
            check("acl.mdl.add_dataset_buffer", ret)
        return dataset

    def _destroy(self, dataset):
        for index in range(acl.mdl.get_dataset_num_buffers(dataset)):
            check("acl.destroy_data_buffer", acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, index)))
        check("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))

    def classify(self, image):
        data = image.tobytes()
        pointer = acl.util.bytes_to_ptr(data)
        item = self.inputs[0]
        check("acl.rt.memcpy", acl.rt.memcpy(item["buffer"], item["size"], pointer, item["size"],
                                             ACL_MEMCPY_HOST_TO_DEVICE))
        inputs, outputs = self._dataset(self.inputs), self._dataset(self.outputs)
        check("acl.mdl.execute", acl.mdl.execute(self.model_id, inputs, outputs))
        self._destroy(inputs)
        self._destroy(outputs)
        results = []
        for index, item in enumerate(self.outputs):
            host, ret = acl.rt.malloc_host(item["size"])
            check("acl.rt.malloc_host", ret)
            check("acl.rt.memcpy", acl.rt.memcpy(host, item["size"], item["buffer"], item["size"],
                                                 ACL_MEMCPY_DEVICE_TO_HOST))
            dims, ret = acl.mdl.get_cur_output_dims(self.desc, index)
            check("acl.mdl.get_cur_output_dims", ret)
            scores = np.frombuffer(acl.util.ptr_to_bytes(host, item["size"]), dtype=np.float32)
            results.append(scores.reshape(tuple(dims["dims"])).copy())
            check("acl.rt.free_host", acl.rt.free_host(host))
        return results

    def release(self):
        check("acl.mdl.unload", acl.mdl.unload(self.model_id))
        check("acl.mdl.destroy_desc", acl.mdl.destroy_desc(self.desc))
        for item in self.inputs + self.outputs:
            check("acl.rt.free", acl.rt.free(item["buffer"]))
        check("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        check("acl.rt.reset_device", acl.rt.reset_device(self.device_id))
        check("acl.finalize", acl.finalize())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--model_path", required=True)
    parser.add_argument("--images_path", required=True)
    args = parser.parse_args()
    classifier = Classifier(args.device, args.model_path)
    for name in sorted(os.listdir(args.images_path)):
        if os.path.splitext(name)[1].lower() not in IMAGE_EXTENSIONS:
            continue
        scores = classifier.classify(preprocess(os.path.join(args.images_path, name)))[0].reshape(-1)
        print(f"image {name}: top5")
        for index in np.argsort(-scores, kind="stable")[:5]:
            print(f"[{index}]: {scores[index]:f}")
    classifier.release()


if __name__ == "__main__":
    main()
